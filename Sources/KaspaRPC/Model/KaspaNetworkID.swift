public import KaspaCrypto

/// A node's network id (`networkId` in `getServerInfo`, kaspa-node.md §1): the network type and,
/// for testnets, its suffix. Its address prefix is the network type's.
public struct KaspaNetworkID: Sendable, Hashable, Codable, CustomStringConvertible, LosslessStringConvertible {
    public let network: KaspaNetwork
    /// The testnet number (10, 11, 12); nil for mainnet, simnet and devnet.
    public let suffix: UInt32?

    public static let mainnet = KaspaNetworkID(network: .mainnet, suffix: nil)
    public static let testnet10 = KaspaNetworkID(network: .testnet, suffix: 10)

    public init(network: KaspaNetwork, suffix: UInt32?) {
        self.network = network
        self.suffix = network == .testnet ? suffix : nil
    }

    /// `mainnet`, `testnet-10`, `testnet-11`, `simnet`, `devnet`: a testnet needs its number.
    public init?(_ text: String) {
        switch text {
        case "mainnet": self = .mainnet
        case "simnet": self.init(network: .simnet, suffix: nil)
        case "devnet": self.init(network: .devnet, suffix: nil)
        default:
            guard text.hasPrefix("testnet-"), let number = UInt32(text.dropFirst("testnet-".count)),
                String(number) == text.dropFirst("testnet-".count)
            else { return nil }
            self.init(network: .testnet, suffix: number)
        }
    }

    public var description: String {
        switch network {
        case .mainnet: "mainnet"
        case .testnet: "testnet-\(suffix ?? 10)"
        case .simnet: "simnet"
        case .devnet: "devnet"
        }
    }

    /// The default wRPC JSON port of this network type (kaspa-node.md §1).
    public var defaultJSONPort: Int {
        switch network {
        case .mainnet: 18110
        case .testnet: 18210
        case .simnet: 18510
        case .devnet: 18610
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = KaspaNetworkID(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown network id \(text)")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
