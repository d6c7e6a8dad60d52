import Foundation
import TandemBasics

/// A bound on how many short-lived commands the test process runs at once (issue 45 item 2).
///
/// Every CLI suite runs `tandem` commands to their end (``ChildProcess/collect(_:_:stdin:environment:)``),
/// and Swift Testing runs the suites side by side: unbounded, two cores end up time-slicing a
/// dozen freshly started debug binaries, and each command's latency grows with all the others.
/// A command waits here for a slot by suspending, so no thread of the cooperative pool is held.
/// Long-lived children (servers, simulated nodes, tmux) take no slot: a test that holds one
/// while it runs commands against it cannot starve them.
public final class ProcessSlots: Sendable {
    /// The slots of ``ChildProcess/collect(_:_:stdin:environment:)``: twice the cores (a command
    /// spends part of its life waiting on a server), or `TANDEM_TEST_COMMANDS`.
    public static let commands = ProcessSlots(
        count: ProcessInfo.processInfo.environment["TANDEM_TEST_COMMANDS"].flatMap(Int.init)
            ?? 2 * ProcessInfo.processInfo.activeProcessorCount)

    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Locked<State>

    public init(count: Int) {
        state = Locked(State(free: max(1, count)))
    }

    /// Runs `body` holding one slot, after waiting (suspended, first come first served) for one.
    public func withSlot<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    private func release() {
        // A waiting command takes the slot over directly; otherwise it is free again.
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }

    /// Slots free now, and commands waiting for one (for tests of the gate).
    public var snapshot: (free: Int, waiting: Int) { state.withLock { ($0.free, $0.waiting.count) } }
}
