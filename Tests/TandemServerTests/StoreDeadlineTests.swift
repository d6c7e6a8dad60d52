import TandemBasics
import TandemTesting
import Testing

@testable import TandemServer
@testable import TandemServerStore

/// The store deadline (issue 14 audit) on an injected clock (issue 26 item 4): a call that does
/// not answer in time fails `.unavailable` when the clock reaches the deadline, not before.
@Suite struct StoreDeadlineTests {
    @Test func aCallPastTheDeadlineFailsUnavailableAtTheDeadline() async throws {
        let clock = ManualClock()
        let deadline = StoreDeadline(timeout: .seconds(5), clock: clock, isUnavailable: { _ in false })
        let (never, _) = AsyncStream.makeStream(of: Void.self)
        let call = Task { try await deadline.bound { for await _ in never {} } }
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

    @Test func aCallThatAnswersInTimeKeepsItsAnswerAndItsError() async throws {
        let deadline = StoreDeadline(timeout: .seconds(5), clock: ManualClock(), isUnavailable: { _ in false })
        #expect(try await deadline.bound { 42 } == 42)
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await deadline.bound { throw Refused() } }
    }

    @Test func anErrorTheBackendCallsALostConnectionIsUnavailable() async throws {
        struct ConnectionLost: Error {}
        let deadline = StoreDeadline(
            timeout: .seconds(5), clock: ManualClock(), isUnavailable: { $0 is ConnectionLost })
        await #expect {
            try await deadline.bound { throw ConnectionLost() }
        } throws: { error in
            guard case ServerStoreError.unavailable = error else { return false }
            return true
        }
    }
}
