/// One step of a BIP-32 path: an index below 2³¹, hardened or not.
public struct ChildNumber: Sendable, Hashable, CustomStringConvertible {
    /// The index without the hardened bit.
    public let index: UInt32
    public let isHardened: Bool

    public static let hardenedBit: UInt32 = 0x8000_0000

    public init(_ index: UInt32, hardened: Bool = false) throws(HDKeyError) {
        guard index < Self.hardenedBit else { throw .indexOutOfRange(index) }
        self.index = index
        self.isHardened = hardened
    }

    /// The 32-bit value BIP-32 serialises and hashes: the index with bit 31 set when hardened.
    public init(rawValue: UInt32) {
        index = rawValue & ~Self.hardenedBit
        isHardened = rawValue & Self.hardenedBit != 0
    }

    public var rawValue: UInt32 { isHardened ? index | Self.hardenedBit : index }

    /// `44'` or `0`.
    public var description: String { isHardened ? "\(index)'" : "\(index)" }
}

/// A BIP-32 derivation path such as `m/44'/111111'/0'/0/0` (`'`, `h` or `H` mark a hardened step).
public struct DerivationPath: Sendable, Hashable, CustomStringConvertible {
    public let components: [ChildNumber]

    public init(_ components: [ChildNumber]) { self.components = components }

    /// Parses `m` followed by `/`-separated indices.
    public init(parsing text: some StringProtocol) throws(HDKeyError) {
        var parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.first == "m" else { throw .malformedPath(String(text)) }
        parts.removeFirst()
        var components: [ChildNumber] = []
        for part in parts {
            var digits = Substring(part)
            let hardened = digits.last.map { "'hH".contains($0) } ?? false
            if hardened { digits = digits.dropLast() }
            guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let index = UInt32(digits)
            else {
                throw .malformedPath(String(text))
            }
            components.append(try ChildNumber(index, hardened: hardened))
        }
        self.components = components
    }

    /// The path one step further.
    public func appending(_ child: ChildNumber) -> DerivationPath { DerivationPath(components + [child]) }

    public var description: String { (["m"] + components.map(\.description)).joined(separator: "/") }
}

/// The Kaspa wallet paths (BIP-44 coin type 111111) that KaChat, Kasia web and the rusty-kaspa
/// SDK's `PrivateKeyGenerator` share: `m/44'/111111'/<account>'/<chain>/<index>`.
public enum KaspaDerivation {
    public static let coinType: UInt32 = 111_111

    /// The account KaChat spends from when its "Chats Privacy" switch is on: payments come from
    /// `m/44'/111111'/1'/0/<index>`, so the chatting address does not show them.
    public static let spendingAccount: UInt32 = 1

    /// `0` receive, `1` change.
    public enum Chain: UInt32, Sendable, CaseIterable {
        case receive = 0
        case change = 1
    }

    /// `m/44'/111111'/<account>'`.
    public static func account(_ account: UInt32) throws(HDKeyError) -> DerivationPath {
        DerivationPath([
            try ChildNumber(44, hardened: true), try ChildNumber(coinType, hardened: true),
            try ChildNumber(account, hardened: true),
        ])
    }

    /// `m/44'/111111'/<account>'/<chain>/<index>`.
    public static func path(account: UInt32, chain: Chain, index: UInt32) throws(HDKeyError) -> DerivationPath {
        try self.account(account).appending(try ChildNumber(chain.rawValue)).appending(try ChildNumber(index))
    }

    /// The chatting key of `account`: the first receive address, `m/44'/111111'/<account>'/0/0`.
    /// KaChat's identity and Kasia web's wallet address ("standard" wallets; account 1 was Kasia's
    /// "legacy" derivation, retired in September 2025).
    public static func chatting(account: UInt32) throws(HDKeyError) -> DerivationPath {
        try path(account: account, chain: .receive, index: 0)
    }
}
