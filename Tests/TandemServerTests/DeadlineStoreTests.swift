import Foundation
import TestSupport
import Testing

@testable import TandemServer

/// `DeadlineStore.bounded`: an operation's answer passes through, a slow one is cut off with
/// `.unavailable` at the deadline, and errors the store calls unreachable become `.unavailable`
/// (issue 14 audit). The deadline is an event-loop timer, cancelled when the operation answers.
@Suite struct DeadlineStoreTests {
    struct Refused: Error {}

    func store(timeout: Duration) throws -> (DeadlineStore, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let base = try SQLiteServerStore(fileURL: directory.url.appendingPathComponent("tandem.sqlite"))
        return (DeadlineStore(base, timeout: timeout, isUnavailable: { $0 is Refused }), directory)
    }

    @Test func answersPassThroughAndManyCallsEachAnswerOnce() async throws {
        let (store, directory) = try store(timeout: .seconds(5))
        defer { directory.remove() }
        for value in 0..<2_000 {
            #expect(try await store.bounded { value } == value)
        }
        try await store.ping()
    }

    @Test(.timeLimit(.minutes(1)))
    func aSlowOperationIsCutOffAtTheDeadline() async throws {
        let (store, directory) = try store(timeout: .milliseconds(200))
        defer { directory.remove() }
        let clock = ContinuousClock()
        let started = clock.now
        await #expect {
            try await store.bounded {
                try await Task.sleep(for: .seconds(30))
                return 1
            }
        } throws: { error in
            guard case ServerStoreError.unavailable(let message) = error else { return false }
            return message.contains("no answer within")
        }
        #expect(clock.now - started < .seconds(10))
    }

    @Test func errorsTheStoreCallsUnreachableBecomeUnavailableAndOthersPassThrough() async throws {
        let (store, directory) = try store(timeout: .seconds(5))
        defer { directory.remove() }
        await #expect {
            try await store.bounded { () async throws -> Int in throw Refused() }
        } throws: { error in
            if case ServerStoreError.unavailable = error { return true }
            return false
        }
        await #expect(throws: CancellationError.self) {
            try await store.bounded { () async throws -> Int in throw CancellationError() }
        }
    }
}
