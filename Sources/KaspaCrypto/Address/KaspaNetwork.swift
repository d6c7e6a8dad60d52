/// The Kaspa networks and their address prefixes (kasia-protocol §1).
public enum KaspaNetwork: String, Sendable, CaseIterable, Codable {
    case mainnet
    case testnet
    case simnet
    case devnet

    /// The human-readable part before the colon.
    public var addressPrefix: String {
        switch self {
        case .mainnet: "kaspa"
        case .testnet: "kaspatest"
        case .simnet: "kaspasim"
        case .devnet: "kaspadev"
        }
    }

    /// The network an address prefix names; exact, lowercase match only.
    public init?(addressPrefix: some StringProtocol) {
        guard let network = Self.allCases.first(where: { $0.addressPrefix == addressPrefix }) else { return nil }
        self = network
    }
}

/// What an address pays to, and so how long its payload is (kasia-protocol §1).
public enum KaspaAddressVersion: UInt8, Sendable, CaseIterable, Codable {
    /// A 32-byte x-only Schnorr key.
    case publicKey = 0
    /// A 33-byte compressed ECDSA key.
    case publicKeyECDSA = 1
    /// A 32-byte script hash (P2SH).
    case scriptHash = 8

    public var payloadLength: Int {
        switch self {
        case .publicKey, .scriptHash: 32
        case .publicKeyECDSA: 33
        }
    }
}
