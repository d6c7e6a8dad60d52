import TandemBasics
import TandemTesting
import TestSupport
import Testing

@testable import TandemServer

/// The store deadline (issue 14 audit) on an injected clock (issue 26 item 4): an operation that
/// does not answer in time fails `.unavailable` when the clock reaches the deadline, not before.
@Suite struct DeadlineStoreTests {
    static func store(_ clock: ManualClock, directory: TemporaryDirectory) throws -> DeadlineStore {
        let base = try SQLiteServerStore(fileURL: directory.url.appendingPathComponent("tandem.sqlite"))
        return DeadlineStore(base, timeout: .seconds(5), clock: clock, isUnavailable: { _ in false })
    }

    @Test func anOperationPastTheDeadlineFailsUnavailableAtTheDeadline() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = ManualClock()
        let store = try Self.store(clock, directory: directory)
        let (never, _) = AsyncStream.makeStream(of: Void.self)
        let call = Task { try await store.bounded { for await _ in never {} } }
        // The deadline's timer is asleep; a millisecond short of 5 s the call still waits
        #expect(await eventually { clock.sleeperCount == 1 })
        clock.advance(by: .milliseconds(4_999))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        await #expect {
            try await call.value
        } throws: { error in
            guard case ServerStoreError.unavailable(let reason) = error else { return false }
            return reason.contains("no answer within")
        }
    }

    @Test func anOperationThatAnswersInTimeKeepsItsAnswerAndError() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.store(ManualClock(), directory: directory)
        #expect(try await store.bounded { 42 } == 42)
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await store.bounded { throw Refused() } }
    }
}
