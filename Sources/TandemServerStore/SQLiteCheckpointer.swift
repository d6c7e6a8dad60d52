import Dispatch
import GRDB
import TandemBasics

/// Copies the SQLite store's write-ahead log back into the database file from a connection of
/// its own, beside the writer (issue 49 item 5).
///
/// SQLite's own checkpoint runs inside the commit that takes the WAL past 1,000 pages, so that
/// commit, and every write queued behind it, waits for the copy and its `fdatasync`s. A wider
/// window wrote less (each page is copied once however often the window rewrote it: 10–20 % less
/// CPU per relay row) but made the waits ten times longer (relay-submit p99 21 → 104 ms,
/// BENCHMARKS.md "Tried and reverted"). Here the writer never checkpoints: each commit only
/// tells this checkpointer, which runs a passive checkpoint at most once per `interval` on its own
/// serial queue. A passive checkpoint takes no lock a reader or the writer waits for; it copies
/// the frames no reader still needs, and the writer starts the WAL over once all are copied.
///
/// `backstopPages` stays the writer's own `wal_autocheckpoint`, for a WAL this checkpointer cannot
/// empty (a reader pinning an old snapshot for minutes): the commit path checkpoints then, as
/// SQLite does by default, only past a window a hundred times wider.
final class SQLiteCheckpointer: Sendable {
    /// The writer's `wal_autocheckpoint`: far past what one `interval` of commits writes.
    static let backstopPages = 100_000

    private struct State {
        var running = false
        var pending = false
        var lastStart: DispatchTime?
        var checkpoints = 0
        var failures = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let connection: DatabaseQueue
    private let interval: Duration
    private let queue = DispatchQueue(label: "tandem.sqlite-checkpointer", qos: .utility)
    private let state = Locked(State())

    init(path: String, interval: Duration) throws {
        var configuration = Configuration()
        configuration.label = "checkpointer"
        configuration.busyMode = .timeout(5)
        connection = try DatabaseQueue(path: path, configuration: configuration)
        self.interval = interval
    }

    /// A write committed: a checkpoint runs now, or once `interval` has passed since the last one
    /// started; commits in the meantime share it.
    func committed() {
        let delay: DispatchTime? = state.withLock { state in
            if state.running {
                state.pending = true
                return nil
            }
            state.running = true
            return start(&state)
        }
        if let delay { schedule(at: delay) }
    }

    /// A run at `deadline`, unless this checkpointer is gone by then: a store that was dropped
    /// does not keep its file open, or checkpoint it, for up to an interval after (a test that
    /// reopened the file met "database is locked", RELIABILITY.md session 48).
    private func schedule(at deadline: DispatchTime) {
        queue.asyncAfter(deadline: deadline) { [weak self] in self?.run() }
    }

    /// How many checkpoints have run, and how many of them failed (the file busy or gone: the
    /// frames stay in the WAL for the next one).
    var checkpoints: (succeeded: Int, failed: Int) { state.withLock { ($0.checkpoints, $0.failures) } }

    /// Returns once no checkpoint is running or waiting to run (for tests).
    func settled() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if !state.running { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// When the next checkpoint may start, as the one now marked running.
    private func start(_ state: inout State) -> DispatchTime {
        let now = DispatchTime.now()
        guard let last = state.lastStart else { return now }
        let (seconds, attoseconds) = interval.components
        // A day at most: the interval is a pacing, and a day's nanoseconds fit any integer here.
        let nanoseconds = min(max(0, seconds), 86_400) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
        return max(now, last + .nanoseconds(Int(nanoseconds)))
    }

    private func run() {
        state.withLock { state in
            state.lastStart = DispatchTime.now()
            // Commits until now are covered by this checkpoint; later ones ask for the next.
            state.pending = false
        }
        // A failed checkpoint (the file is busy or gone) loses nothing: the frames stay in the
        // WAL for the next one, and the writer's backstop still bounds it.
        let succeeded = (try? connection.writeWithoutTransaction { db in try db.checkpoint(.passive) }) != nil
        let (next, waiters) = state.withLock { state -> (DispatchTime?, [CheckedContinuation<Void, Never>]) in
            if succeeded { state.checkpoints += 1 } else { state.failures += 1 }
            if state.pending {
                state.pending = false
                return (start(&state), [])
            }
            state.running = false
            defer { state.waiters = [] }
            return (nil, state.waiters)
        }
        for waiter in waiters { waiter.resume() }
        if let next { schedule(at: next) }
    }
}
