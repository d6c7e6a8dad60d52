import Foundation
import TandemBasics
import TandemTesting
import Testing

@Suite struct ManualClockTests {
    struct NeverParked: Error {}

    /// Records the order in which sleepers woke.
    actor WakeLog {
        private(set) var woken: [Int] = []
        func append(_ index: Int) { woken.append(index) }
    }

    /// Yields until `count` sleepers are parked (tests never sleep for real).
    func waitForSleepers(_ clock: ManualClock, count: Int) async throws {
        for _ in 0..<1_000_000 {
            if clock.sleeperCount == count { return }
            await Task.yield()
        }
        throw NeverParked()
    }

    @Test func startsAtItsInstantAndMovesOnlyWhenTold() {
        let clock = ManualClock(UnixMillis(1_000))
        #expect(clock.now == UnixMillis(1_000))
        clock.advance(by: .milliseconds(250))
        #expect(clock.now == UnixMillis(1_250))
        clock.set(UnixMillis(-5))
        #expect(clock.now == UnixMillis(-5))
        #expect(ManualClock().now.iso8601 == "2026-01-01T00:00:00.000Z")
        #expect(clock.minimumResolution == .milliseconds(1))
    }

    @Test(.timeLimit(.minutes(1)))
    func wakesSleepersInDeadlineOrderAsTimeReachesThem() async throws {
        // Given three sleepers with deadlines 30, 10 and 20 ms ahead
        let clock = ManualClock(UnixMillis(0))
        let log = WakeLog()
        let offsets = [30, 10, 20]
        var tasks: [Task<Void, any Error>] = []
        for (index, offset) in offsets.enumerated() {
            tasks.append(
                Task {
                    try await clock.sleep(until: UnixMillis(Int64(offset)), tolerance: nil)
                    await log.append(index)
                })
        }
        try await waitForSleepers(clock, count: 3)
        // When time passes the first deadline only, one sleeper wakes
        clock.advance(by: .milliseconds(15))
        try await tasks[1].value
        #expect(clock.sleeperCount == 2)
        #expect(await log.woken == [1])
        // Then an advance that stops short of the next deadline wakes nobody
        clock.advance(by: .milliseconds(4))
        #expect(clock.sleeperCount == 2)
        // And the rest wake as time reaches them, in deadline order
        clock.advance(by: .milliseconds(1))
        try await tasks[2].value
        clock.set(UnixMillis(30))
        try await tasks[0].value
        #expect(await log.woken == [1, 2, 0])
        #expect(clock.sleeperCount == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func aDeadlineInThePastReturnsAtOnce() async throws {
        let clock = ManualClock(UnixMillis(100))
        try await clock.sleep(until: UnixMillis(100), tolerance: nil)
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingASleeperThrowsCancellationError() async throws {
        let clock = ManualClock(UnixMillis(0))
        let sleeper = Task { try await clock.sleep(until: UnixMillis(1_000), tolerance: nil) }
        try await waitForSleepers(clock, count: 1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
        // Time moving later wakes nobody twice.
        clock.advance(by: .seconds(2))
    }

    @Test(.timeLimit(.minutes(1)))
    func aTaskCancelledBeforeItSleepsThrowsInsteadOfHanging() async throws {
        let clock = ManualClock(UnixMillis(0))
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(until: UnixMillis(1_000), tolerance: nil)
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func servesAsAnyWallClock() async throws {
        let manual = ManualClock(UnixMillis(0))
        let clock: any WallClock = manual
        let waiter = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(1)), tolerance: nil) }
        try await waitForSleepers(manual, count: 1)
        manual.advance(by: .seconds(1))
        try await waiter.value
        #expect(clock.now == UnixMillis(1_000))
    }
}
