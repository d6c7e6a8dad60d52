public import ServiceLifecycle
public import TandemBasics

/// Mines a block of the node every `interval` on `clock` (kaspa-node.md §10: "blocks at a
/// steady pace that accept the mempool in arrival order"), until graceful shutdown. Tests that
/// order events mine on demand instead.
public struct BlockProducer: Service {
    public let node: SimulatedKaspaNode
    public let interval: Duration
    private let clock: any WallClock

    public init(node: SimulatedKaspaNode, interval: Duration, clock: any WallClock = SystemClock()) {
        self.node = node
        self.interval = interval
        self.clock = clock
    }

    /// Ends without an error at graceful shutdown (or when cancelled): stopping is not a failure
    /// the service group should report.
    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while true {
                    try await clock.sleep(for: interval)
                    await node.mine()
                }
            }
        } catch is CancellationError {
            return
        }
    }
}
