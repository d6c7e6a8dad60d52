/// Tunables of the relay (issue 11): the stream's queue, heartbeat and poll, and the
/// submission rate limits.
public struct RelayConfiguration: Sendable {
    /// Events a stream may hold for a slow reader before it is disconnected.
    public var streamBufferCapacity: Int
    /// A `: heartbeat` comment this often keeps idle streams open through proxies.
    public var heartbeatInterval: Duration
    /// How often the fan-out re-reads the store, in case a NOTIFY was lost.
    public var pollInterval: Duration
    /// Token bucket per sender address and per client address: bursts of 20, 1/s sustained.
    public var submissionBurst: Double
    public var submissionsPerSecond: Double

    public init(
        streamBufferCapacity: Int = 256, heartbeatInterval: Duration = .seconds(15),
        pollInterval: Duration = .seconds(2),
        submissionBurst: Double = 20, submissionsPerSecond: Double = 1
    ) {
        self.streamBufferCapacity = streamBufferCapacity
        self.heartbeatInterval = heartbeatInterval
        self.pollInterval = pollInterval
        self.submissionBurst = submissionBurst
        self.submissionsPerSecond = submissionsPerSecond
    }
}
