import BenchSupport
import TandemBasics

/// When each arrival of a key happened — the n-th apply of a wallet event, a transaction's
/// message coming out of `listen()` — on this process's monotonic clock, for a measuring task to
/// wait on without polling (polling would add its own wake-ups to what is measured).
final class Arrivals<Key: Hashable & Sendable>: Sendable {
    private struct Waiter {
        var key: Key
        var number: Int
        var continuation: CheckedContinuation<ContinuousClock.Instant, any Error>
    }

    private struct State {
        /// When each key arrived, in order.
        var instants: [Key: [ContinuousClock.Instant]] = [:]
        var waiters: [UInt64: Waiter] = [:]
        /// Waits cancelled before they registered.
        var cancelled: Set<UInt64> = []
        var nextWaiter: UInt64 = 0
        /// Why nothing more will arrive, once that is so.
        var ended: String?
    }

    private let state = Locked(State())

    /// `key` arrived just now; answers the instant recorded.
    @discardableResult
    func record(_ key: Key) -> ContinuousClock.Instant {
        let now = ContinuousClock.now
        let ready = state.withLock { state in
            state.instants[key, default: []].append(now)
            let count = state.instants[key]?.count ?? 0
            let done = state.waiters.filter { $0.value.key == key && $0.value.number <= count }
            for id in done.keys { state.waiters[id] = nil }
            return done.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume(returning: now) }
        return now
    }

    /// How many times `key` has arrived.
    func count(_ key: Key) -> Int { state.withLock { $0.instants[key]?.count ?? 0 } }

    /// The keys that arrived more than once.
    var repeated: [Key] { state.withLock { $0.instants.filter { $0.value.count > 1 }.map(\.key) } }

    /// Nothing more will arrive (`reason` says why): every wait, now or later, fails.
    func end(_ reason: String) {
        let waiting = state.withLock { state in
            state.ended = reason
            defer { state.waiters = [:] }
            return state.waiters.values.map(\.continuation)
        }
        for continuation in waiting { continuation.resume(throwing: CLIError(reason)) }
    }

    /// The instant of the `number`-th arrival of `key` (counted from the start), waiting for it;
    /// nil when it has not come within `timeout`.
    func instant(of key: Key, number: Int, timeout: Duration) async throws -> ContinuousClock.Instant? {
        try await withThrowingTaskGroup(of: ContinuousClock.Instant?.self) { group in
            group.addTask { try await self.arrival(key, number) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    private func arrival(_ key: Key, _ number: Int) async throws -> ContinuousClock.Instant {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let answer: Result<ContinuousClock.Instant, any Error>? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if let instants = state.instants[key], instants.count >= number {
                        return .success(instants[number - 1])
                    }
                    if let ended = state.ended { return .failure(CLIError(ended)) }
                    state.waiters[id] = Waiter(key: key, number: number, continuation: continuation)
                    return nil
                }
                if let answer { continuation.resume(with: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil as Waiter?
                }
                return waiter
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }
}
