import KaspaNode
import Synchronization

/// What the bench's consumer of `node.events` has applied to the wallet, and when each
/// `wallet.apply(event)` returned, for the measuring task to wait on without polling (polling
/// would add its own wake-ups to the CPU being measured).
final class WalletProbe: Sendable {
    enum Kind: Sendable, Hashable {
        case connected, disconnected, utxosChanged, virtualDaaScoreChanged
        /// `apply` threw.
        case failed

        init(_ event: KaspaNodeEvent) {
            switch event {
            case .connected: self = .connected
            case .disconnected: self = .disconnected
            case .utxosChanged: self = .utxosChanged
            case .virtualDaaScoreChanged: self = .virtualDaaScoreChanged
            }
        }
    }

    private struct Waiter {
        var kind: Kind
        var count: Int
        var continuation: CheckedContinuation<ContinuousClock.Instant, any Error>
    }

    private struct State {
        /// When each apply of a kind returned, in order.
        var applied: [Kind: [ContinuousClock.Instant]] = [:]
        var failures: [String] = []
        var waiters: [UInt64: Waiter] = [:]
        /// Waits cancelled before they registered.
        var cancelled: Set<UInt64> = []
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    /// An apply of `kind` returned just now.
    func record(_ kind: Kind, failure: String? = nil) {
        let now = ContinuousClock.now
        let ready = state.withLock { state in
            state.applied[kind, default: []].append(now)
            if let failure { state.failures.append(failure) }
            let count = state.applied[kind]?.count ?? 0
            let done = state.waiters.filter { $0.value.kind == kind && $0.value.count <= count }
            for id in done.keys { state.waiters[id] = nil }
            return done.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume(returning: now) }
    }

    /// How many applies of `kind` have returned.
    func count(_ kind: Kind) -> Int { state.withLock { $0.applied[kind]?.count ?? 0 } }

    /// What `apply` threw, in order.
    var failures: [String] { state.withLock { $0.failures } }

    /// Waits until the `count`-th apply of `kind` (counted from the start) has returned; answers
    /// when it did. Throws after `timeout`.
    func instant(of kind: Kind, number count: Int, timeout: Duration) async throws -> ContinuousClock.Instant {
        try await withThrowingTaskGroup(of: ContinuousClock.Instant?.self) { group in
            group.addTask { try await self.reached(kind, count) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let instant = first else {
                throw CLIError("wallet-node bench: no \(kind) event applied within \(timeout) (failures: \(failures))")
            }
            return instant
        }
    }

    private func reached(_ kind: Kind, _ count: Int) async throws -> ContinuousClock.Instant {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let answer: Result<ContinuousClock.Instant, any Error>? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if let applied = state.applied[kind], applied.count >= count { return .success(applied[count - 1]) }
                    state.waiters[id] = Waiter(kind: kind, count: count, continuation: continuation)
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
