/// Coalesces changes (timeline-and-contacts §3.3 "Change notifications"): a batch is due once
/// no change arrived for `quietPeriod`, or `maxWait` after the first pending change, whichever
/// comes first, so a steady stream of edits still produces a batch every `maxWait`.
///
/// A pure state machine over any clock's instants; ``ContactChangeFeed`` drives it.
public struct ChangeDebouncer<Instant: InstantProtocol>: Sendable where Instant.Duration: Sendable {
    public let quietPeriod: Instant.Duration
    public let maxWait: Instant.Duration
    private var firstPending: Instant?
    private var lastPending: Instant?
    /// Pending keys with their latest watched state.
    private var pending: [ContactKey: Bool] = [:]

    public init(quietPeriod: Instant.Duration, maxWait: Instant.Duration) {
        self.quietPeriod = quietPeriod
        self.maxWait = maxWait
    }

    public var hasPending: Bool { firstPending != nil }

    /// When the pending batch is due; nil when nothing is pending.
    public var deadline: Instant? {
        guard let firstPending, let lastPending else { return nil }
        return min(lastPending.advanced(by: quietPeriod), firstPending.advanced(by: maxWait))
    }

    public mutating func receive(_ changes: [ContactChange], at now: Instant) {
        guard !changes.isEmpty else { return }
        if firstPending == nil { firstPending = now }
        lastPending = now
        for change in changes { pending[change.key] = change.isWatched }
    }

    /// The pending batch if it is due at `now` (and clears it); nil otherwise.
    public mutating func flush(at now: Instant) -> [ContactKey: Bool]? {
        guard let deadline, deadline <= now else { return nil }
        let batch = pending
        pending = [:]
        firstPending = nil
        lastPending = nil
        return batch
    }
}
