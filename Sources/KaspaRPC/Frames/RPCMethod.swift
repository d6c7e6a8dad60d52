/// The wRPC ops a wallet, a chat client and an indexer use (kaspa-node.md §4), by their
/// camelCase wire names.
public enum RPCMethod: String, Sendable, Hashable, CaseIterable, Codable {
    case ping
    case getServerInfo
    case getBlockDagInfo
    case getUtxosByAddresses
    case getBalanceByAddress
    case getBalancesByAddresses
    case submitTransaction
    case getFeeEstimate
    case getMempoolEntry
    case getMempoolEntriesByAddresses
    case getVirtualChainFromBlockV2
    case subscribe
    case unsubscribe
}

/// The notification frames (`method` of a frame without `id`, kaspa-node.md §2).
public enum RPCNotificationMethod: String, Sendable, Hashable, CaseIterable {
    case utxosChanged = "utxosChangedNotification"
    case virtualDaaScoreChanged = "virtualDaaScoreChangedNotification"
    case virtualChainChanged = "virtualChainChangedNotification"
    case blockAdded = "blockAddedNotification"
    case sinkBlueScoreChanged = "sinkBlueScoreChangedNotification"

    /// The PascalCase scope member that wraps the notification's body, and names a subscription.
    public var scope: String {
        switch self {
        case .utxosChanged: "UtxosChanged"
        case .virtualDaaScoreChanged: "VirtualDaaScoreChanged"
        case .virtualChainChanged: "VirtualChainChanged"
        case .blockAdded: "BlockAdded"
        case .sinkBlueScoreChanged: "SinkBlueScoreChanged"
        }
    }
}
