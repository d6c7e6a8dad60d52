/// The bounds of the in-process queue of sync writes (`SyncWriteGate`, issue 12): how many
/// writes may wait, how many of them one account may hold, and how long one may wait before it
/// is answered 429 `SYNC_BUSY`. `tandem serve --sync-queue-*` sets them; the defaults are the
/// values the queue was measured with in session 6 (`scripts/load` sync-push on PostgreSQL,
/// RELIABILITY.md), kept as they were.
public struct SyncWriteLimits: Sendable, Equatable {
    /// Writes that may wait at once, over every account.
    public var maxWaiting: Int
    /// Writes one account may have waiting: one account cannot fill the queue for everyone.
    public var maxWaitingPerAccount: Int
    /// How long a write may wait for its turn.
    public var maxWait: Duration
    /// One account's pace of sync writes (issue 50 item 6), on every backend when the server
    /// rate-limits: bursts of `writeBurst` requests, `writesPerSecond` sustained; past it 429
    /// `RATE_LIMITED` with `Retry-After`. A request carries up to 500 nodes or records, so an
    /// honest device's catch-up of tens of thousands fits in one burst.
    public var writeBurst: Int
    public var writesPerSecond: Double
    /// One account's pace of task shares (issue 50 item 6), on top of its write pace, when the
    /// server rate-limits: bursts of `shareBurst`, `sharesPerHour` sustained (one a minute by
    /// default), so an account cannot fill strangers' invitation lists.
    public var shareBurst: Int
    public var sharesPerHour: Double

    public init(
        maxWaiting: Int = 256, maxWaitingPerAccount: Int = 64, maxWait: Duration = .seconds(10),
        writeBurst: Int = 120, writesPerSecond: Double = 2, shareBurst: Int = 30, sharesPerHour: Double = 60
    ) {
        self.maxWaiting = maxWaiting
        self.maxWaitingPerAccount = maxWaitingPerAccount
        self.maxWait = maxWait
        self.writeBurst = writeBurst
        self.writesPerSecond = writesPerSecond
        self.shareBurst = shareBurst
        self.sharesPerHour = sharesPerHour
    }
}
