public import KaspaCrypto

/// A subscription scope (kaspa-node.md §2): the PascalCase wrapper names the notification.
/// `UtxosChanged` subscriptions for addresses accumulate per connection.
public enum RPCSubscription: Sendable, Hashable, Codable {
    case utxosChanged(addresses: [KaspaAddress])
    case virtualDaaScoreChanged

    private enum Scope: String, CodingKey {
        case utxosChanged = "UtxosChanged"
        case virtualDaaScoreChanged = "VirtualDaaScoreChanged"
    }

    private enum AddressesKey: String, CodingKey { case addresses }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Scope.self)
        if container.contains(.utxosChanged) {
            let scope = try container.nestedContainer(keyedBy: AddressesKey.self, forKey: .utxosChanged)
            self = .utxosChanged(addresses: try scope.decodeIfPresent([KaspaAddress].self, forKey: .addresses) ?? [])
        } else if container.contains(.virtualDaaScoreChanged) {
            self = .virtualDaaScoreChanged
        } else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "unsupported subscription scope"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Scope.self)
        switch self {
        case .utxosChanged(let addresses):
            var scope = container.nestedContainer(keyedBy: AddressesKey.self, forKey: .utxosChanged)
            try scope.encode(addresses, forKey: .addresses)
        case .virtualDaaScoreChanged:
            _ = container.nestedContainer(keyedBy: AddressesKey.self, forKey: .virtualDaaScoreChanged)
        }
    }
}

/// `UtxosChanged`: the net change of the UTXO index at a virtual-chain acceptance. In `removed`,
/// `outpoint.transactionId` is the transaction that created the spent output (§8).
public struct RPCUtxosChanged: Sendable, Hashable, Codable {
    public var added: [RPCUtxosByAddressesEntry]
    public var removed: [RPCUtxosByAddressesEntry]

    public init(added: [RPCUtxosByAddressesEntry], removed: [RPCUtxosByAddressesEntry]) {
        self.added = added
        self.removed = removed
    }
}

/// `VirtualDaaScoreChanged`: about ten a second, the liveness tick.
public struct RPCVirtualDaaScoreChanged: Sendable, Hashable, Codable {
    public var virtualDaaScore: UInt64
    public init(virtualDaaScore: UInt64) { self.virtualDaaScore = virtualDaaScore }
}

/// A decoded notification frame.
public enum RPCNotification: Sendable, Hashable {
    case utxosChanged(RPCUtxosChanged)
    case virtualDaaScoreChanged(RPCVirtualDaaScoreChanged)
    /// A notification this client does not read (named by its method).
    case other(method: String)
}
