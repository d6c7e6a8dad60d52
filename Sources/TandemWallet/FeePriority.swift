public import KaspaRPC

/// `--priority low|normal|high`: which bucket of the node's fee estimate to pay.
public enum FeePriority: String, Sendable, CaseIterable, Codable {
    case low, normal, high

    /// Priority = the priority bucket, normal = the first normal bucket, low = the first low
    /// bucket (kaspa-node.md §4); a missing bucket falls back to the next higher one.
    public func feeRate(in estimate: RPCFeeEstimate) -> Double {
        switch self {
        case .high: estimate.priorityBucket.feerate
        case .normal: estimate.normalBuckets.first?.feerate ?? estimate.priorityBucket.feerate
        case .low:
            estimate.lowBuckets.first?.feerate ?? estimate.normalBuckets.first?.feerate
                ?? estimate.priorityBucket.feerate
        }
    }
}

/// How long a wallet waits out a full mempool (or a syncing node) before giving up.
public struct WalletRetryPolicy: Sendable, Equatable {
    public var mempoolFullDelays: [Duration]

    public init(mempoolFullDelays: [Duration] = [.seconds(1), .seconds(2), .seconds(4)]) {
        self.mempoolFullDelays = mempoolFullDelays
    }
}
