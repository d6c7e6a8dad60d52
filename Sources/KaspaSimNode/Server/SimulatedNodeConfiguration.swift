public import KaspaRPC

/// How one port of the simulated node is served.
public struct SimulatedNodeConfiguration: Sendable, Hashable {
    public var host: String
    /// 0 picks a free port (``RunningNodeServer/port`` tells which).
    public var port: Int
    /// The `getFeeEstimate` answer. Feerates under the relay floor (100 sompi/gram) are raised to it.
    public var feeEstimate: RPCFeeEstimate
    /// Serve the HTTP control API under `/sim/` on this port too.
    public var controlAPI: Bool
    /// Serve the kasia-indexer routes (`/handshakes/by-sender`, …, `/metrics`) on this port too.
    public var kasiaIndexer: Bool
    /// The largest WebSocket frame read or written.
    public var maximumFrameSize: Int
    /// `serverVersion` in `getServerInfo`.
    public var serverVersion: String

    public init(
        host: String = "127.0.0.1", port: Int = 0, feeEstimate: RPCFeeEstimate = Self.defaultFeeEstimate,
        controlAPI: Bool = true, kasiaIndexer: Bool = true, maximumFrameSize: Int = 8 << 20,
        serverVersion: String = "2.0.1"
    ) {
        self.host = host
        self.port = port
        self.feeEstimate = feeEstimate
        self.controlAPI = controlAPI
        self.kasiaIndexer = kasiaIndexer
        self.maximumFrameSize = maximumFrameSize
        self.serverVersion = serverVersion
    }

    /// The relay floor of v2 nodes in sompi per gram (kaspa-node.md §4, §7).
    public static let relayFloorFeerate: Double = 100

    /// Priority 150, normal 120, low 100 sompi/gram.
    public static let defaultFeeEstimate = RPCFeeEstimate(
        priorityBucket: .init(feerate: 150, estimatedSeconds: 1),
        normalBuckets: [.init(feerate: 120, estimatedSeconds: 10)],
        lowBuckets: [.init(feerate: 100, estimatedSeconds: 60)])

    /// ``feeEstimate`` with every feerate at least the relay floor.
    var flooredFeeEstimate: RPCFeeEstimate {
        func floored(_ bucket: RPCFeerateBucket) -> RPCFeerateBucket {
            .init(feerate: max(bucket.feerate, Self.relayFloorFeerate), estimatedSeconds: bucket.estimatedSeconds)
        }
        return RPCFeeEstimate(
            priorityBucket: floored(feeEstimate.priorityBucket), normalBuckets: feeEstimate.normalBuckets.map(floored),
            lowBuckets: feeEstimate.lowBuckets.map(floored))
    }
}
