import HTTPTypes
import TandemAPI
import TandemBasics
import TandemTesting
import Testing

@testable import TandemServer

/// The in-process queue of sync writes (issue 12, clock lock past the deadline): one write at a
/// time in arrival order, and a typed 429 `SYNC_BUSY` only when the queue is full or too slow.
@Suite struct SyncWriteGateTests {
    /// Waits (without blocking a cooperative thread) until `condition` holds.
    static func eventually(_ condition: @Sendable () -> Bool) async throws {
        #expect(await TandemTesting.eventually(condition))
    }

    /// Runs `body` while `gate`'s sweeper runs, as the application's service group runs it.
    static func running(_ gate: SyncWriteGate, _ body: () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await gate.run() }
            defer { group.cancelAll() }
            try await body()
        }
    }

    /// Runs `body` while a write of `u1` holds `gate`, then lets that write finish.
    static func whileHeld(_ gate: SyncWriteGate, _ body: () async throws -> Void) async throws {
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let started = Locked(false)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await gate.run(account: "u1") {
                    started.withLock { $0 = true }
                    for await _ in release { break }
                }
            }
            try await eventually { started.withLock { $0 } }
            try await body()
            releaser.yield()
            try await group.waitForAll()
        }
    }

    @Test func writesRunOneAtATimeInArrivalOrder() async throws {
        let gate = SyncWriteGate()
        let log = Locked<[String]>([])
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await gate.run(account: "u1") {
                    log.withLock { $0.append("first start") }
                    for await _ in release { break }
                    log.withLock { $0.append("first end") }
                }
            }
            try await Self.eventually { log.withLock { $0.count } == 1 }
            for name in ["second", "third"] {
                group.addTask { try await gate.run(account: "u2") { log.withLock { $0.append(name) } } }
                let queued = name == "second" ? 1 : 2
                try await Self.eventually { gate.waiting == queued }
            }
            releaser.yield()
            try await group.waitForAll()
        }
        #expect(log.withLock { $0 } == ["first start", "first end", "second", "third"])
        #expect(gate.waiting == 0)
    }

    @Test func aFullQueueIsRefusedWithSyncBusyAndRetryAfter() async throws {
        let gate = SyncWriteGate(limits: SyncWriteLimits(maxWaiting: 3, maxWaitingPerAccount: 1, maxWait: .seconds(60)))
        var queued: [Task<Void, any Error>] = []
        try await Self.whileHeld(gate) {
            queued.append(Task { try await gate.run(account: "u1") {} })
            try await Self.eventually { gate.waiting == 1 }
            // u1 already has one write waiting: its next one is refused, another account's is not
            do {
                _ = try await gate.run(account: "u1") { Issue.record("ran past a full queue") }
                Issue.record("not refused")
            } catch let failure as APIFailure {
                #expect(failure.status == .tooManyRequests)
                #expect(failure.body.code == APIErrorCode.syncBusy.rawValue)
                #expect(failure.headers[.retryAfter] == "1")
            }
            queued.append(Task { try await gate.run(account: "u2") {} })
            try await Self.eventually { gate.waiting == 2 }
        }
        for write in queued { try await write.value }
        #expect(gate.waiting == 0)
    }

    @Test func aWriteThatWaitsTooLongIsRefusedAndLeavesTheQueue() async throws {
        let clock = ManualClock()
        let gate = SyncWriteGate(limits: SyncWriteLimits(maxWait: .milliseconds(50)), clock: clock)
        try await Self.running(gate) {
            try await Self.whileHeld(gate) {
                let waiter = Task { try await gate.run(account: "u2") {} }
                // Queued, and the sweeper asleep until its deadline: a millisecond short of it, it waits on
                try await Self.eventually { gate.waiting == 1 && clock.sleeperCount == 1 }
                clock.advance(by: .milliseconds(49))
                #expect(gate.waiting == 1)
                // At the deadline it is refused
                clock.advance(by: .milliseconds(1))
                await #expect(throws: APIFailure.self) { try await waiter.value }
                #expect(gate.waiting == 0)
            }
            // The gate is free again
            #expect(try await gate.run(account: "u2") { 42 } == 42)
        }
    }

    /// Without its sweeper running (no service group), the gate still admits queued writes in
    /// order; only the wait bound is not enforced.
    @Test func withoutItsSweeperTheGateStillAdmitsInOrder() async throws {
        let clock = ManualClock()
        let gate = SyncWriteGate(limits: SyncWriteLimits(maxWait: .milliseconds(10)), clock: clock)
        let ran = Locked(false)
        try await Self.whileHeld(gate) {
            let waiter = Task { try await gate.run(account: "u2") { ran.withLock { $0 = true } } }
            try await Self.eventually { gate.waiting == 1 }
            clock.advance(by: .milliseconds(20))
            #expect(clock.sleeperCount == 0)
            #expect(gate.waiting == 1)
            _ = waiter
        }
        try await Self.eventually { ran.withLock { $0 } }
    }

    /// One sweeper serves the whole queue: every waiter past its deadline is refused, not only
    /// the one it slept for, and a write arriving after the queue emptied wakes it again.
    @Test func everyWaiterPastItsDeadlineIsRefusedByTheOneSweeper() async throws {
        let clock = ManualClock()
        let gate = SyncWriteGate(limits: SyncWriteLimits(maxWait: .milliseconds(40)), clock: clock)
        try await Self.running(gate) {
            try await Self.whileHeld(gate) {
                for round in 0..<2 {
                    let refused = Locked(0)
                    try await withThrowingTaskGroup(of: Void.self) { waiters in
                        for account in ["u2", "u3", "u4"] {
                            waiters.addTask {
                                do {
                                    _ = try await gate.run(account: account) {
                                        Issue.record("ran while the gate was held")
                                    }
                                } catch let failure as APIFailure
                                    where failure.body.code == APIErrorCode.syncBusy.rawValue
                                {
                                    refused.withLock { $0 += 1 }
                                }
                            }
                        }
                        // All three queued, one sweeper asleep: one move of the clock refuses them all
                        try await Self.eventually { gate.waiting == 3 && clock.sleeperCount == 1 }
                        clock.advance(by: .milliseconds(40))
                        try await waiters.waitForAll()
                    }
                    #expect(refused.withLock { $0 } == 3, "round \(round)")
                    #expect(gate.waiting == 0)
                }
            }
            #expect(try await gate.run(account: "u2") { "free" } == "free")
        }
    }

    @Test func aCancelledWaiterLeavesTheQueueAndAThrowingWriteFreesTheGate() async throws {
        let gate = SyncWriteGate()
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let started = Locked(false)
        let holder = Task {
            try await gate.run(account: "u1") {
                started.withLock { $0 = true }
                for await _ in release { break }
            }
        }
        try await Self.eventually { started.withLock { $0 } }
        let waiter = Task { try await gate.run(account: "u1") { Issue.record("a cancelled write ran") } }
        try await Self.eventually { gate.waiting == 1 }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(gate.waiting == 0)
        releaser.yield()
        try await holder.value
        struct Boom: Error {}
        await #expect(throws: Boom.self) { try await gate.run(account: "u1") { throw Boom() } }
        #expect(try await gate.run(account: "u1") { "free" } == "free")
    }

    /// Session 7: a gate that does not queue (SQLite's) runs every write at once, whatever its
    /// limits: three writes of one account are all inside together, and none is refused.
    @Test func aGateThatDoesNotQueueRunsWritesTogether() async throws {
        let gate = SyncWriteGate(
            queues: false, limits: SyncWriteLimits(maxWaiting: 1, maxWaitingPerAccount: 1, maxWait: .milliseconds(1)))
        let inside = Locked(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    try await gate.run(account: "u1") {
                        inside.withLock { $0 += 1 }
                        try await Self.eventually { inside.withLock { $0 } == 3 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(inside.withLock { $0 } == 3)
        #expect(gate.waiting == 0)
    }
}
