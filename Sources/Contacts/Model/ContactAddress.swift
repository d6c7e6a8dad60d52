public import KaspaCrypto

/// A contact's (or wallet's) address in its one canonical text form: lowercase `kaspa:…`.
///
/// KaChat stored addresses as typed, so its lists hold `KASPA:QPUM…`, mixed case and bare bodies
/// without the prefix (kasia-protocol §8). They all name the same record here: the store is keyed
/// by this normalised form (timeline-and-contacts §3.3, "one record per (wallet, address)").
public struct ContactAddress: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The parsed address.
    public let address: KaspaAddress
    /// The canonical lowercase text form.
    public let description: String

    /// Wraps an already-parsed address.
    public init(_ address: KaspaAddress) {
        self.address = address
        self.description = address.description
    }

    /// Normalises user or legacy input: trims whitespace, lowercases (CashAddr is case-insensitive
    /// but `KaspaAddress` parses lowercase only) and adds `kaspa:` when no prefix is given.
    public init(normalizing text: some StringProtocol) throws(ContactsError) {
        let trimmed = String(text).trimmingWhitespace().lowercased()
        guard !trimmed.isEmpty else { throw .invalidAddress(String(text), reason: "empty") }
        let prefixed = trimmed.contains(":") ? trimmed : "kaspa:" + trimmed
        do {
            self.init(try KaspaAddress(prefixed))
        } catch {
            throw .invalidAddress(String(text), reason: error.description)
        }
    }

    /// KaChat's default alias: the last 8 characters of the address (kasia-protocol §8).
    public var autoAlias: String { String(description.suffix(8)) }

    public static func < (lhs: ContactAddress, rhs: ContactAddress) -> Bool {
        lhs.description.utf8.lexicographicallyPrecedes(rhs.description.utf8)
    }

    public static func == (lhs: ContactAddress, rhs: ContactAddress) -> Bool {
        lhs.description == rhs.description
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines (no Foundation needed).
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
