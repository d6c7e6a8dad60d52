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

    /// An address with its text, which must be `address.description`.
    private init(address: KaspaAddress, text: String) {
        self.address = address
        self.description = text
    }

    /// Normalises user or legacy input: trims whitespace, lowercases (CashAddr is case-insensitive
    /// but `KaspaAddress` parses lowercase only) and adds `kaspa:` when no prefix is given.
    public init(normalizing text: some StringProtocol) throws(ContactsError) {
        let string = String(text)
        if Self.isCanonicalForm(string), let address = try? KaspaAddress(string) {
            // `KaspaAddress` decodes strictly (lowercase, valid checksum, zero padding), so the
            // text it accepts is the text it encodes to (the `kaspa-address` fuzz target checks
            // it): keep it instead of encoding it again (issue 12 "Figures": a full contacts
            // sync parses 40,000 addresses).
            self.init(address: address, text: string)
            return
        }
        let trimmed = String(text).trimmingWhitespace().lowercased()
        guard !trimmed.isEmpty else { throw .invalidAddress(String(text), reason: "empty") }
        let prefixed = trimmed.contains(":") ? trimmed : "kaspa:" + trimmed
        do {
            self.init(try KaspaAddress(prefixed))
        } catch {
            throw .invalidAddress(String(text), reason: error.description)
        }
    }

    /// Text that trimming and lowercasing leave as it is and that names its prefix: only
    /// `a-z`, `0-9` and a `:`. Such text skips the Foundation string work of the general path.
    static func isCanonicalForm(_ text: String) -> Bool {
        var colon = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): continue
            case UInt8(ascii: ":"): colon = true
            default: return false
            }
        }
        return colon
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
