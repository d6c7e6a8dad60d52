import Foundation
import TandemAPI
import TandemAccounts
import TandemBasics
import TandemProfile
import TandemSync
import TandemTesting
import TestSupport
import Testing

@testable import TandemAccounts
@testable import TandemSync

/// The sync retry policy honours the server's `Retry-After` (the 429 `SYNC_BUSY` of a full
/// sync-write queue), bounded by its own maximum, and backs off on its own without it.
@Suite struct SyncRetryPolicyTests {
    /// A policy that records its waits instead of sleeping.
    static func recording(attempts: Int = 4) -> (SyncRetryPolicy, Locked<[Duration]>) {
        let waits = Locked<[Duration]>([])
        var policy = SyncRetryPolicy(attempts: attempts, initialDelay: .milliseconds(200), maxDelay: .seconds(5))
        policy.sleep = { delay in waits.withLock { $0.append(delay) } }
        return (policy, waits)
    }

    static let busy = AccountClientError.server(status: 429, code: .syncBusy, message: "queued")

    @Test(
        arguments: [
            ("1", UInt64(1)), (" 3 ", 3), ("0", 0), ("120", 120), ("18446744073709551615", nil), ("", nil), ("-1", nil),
            ("1.5", nil), ("abc", nil), ("Wed, 21 Oct 2026 07:28:00 GMT", nil), ("+2", nil),
        ] as [(String, UInt64?)])
    func retryAfterIsReadAsDelaySecondsOnly(text: String, seconds: UInt64?) {
        #expect(RetryAfterHint.parse(text) == seconds)
    }

    @Test func theServersDelayReplacesTheBackoffStepUpToTheMaximum() async throws {
        let (policy, waits) = Self.recording()
        let headers = ["2", "600", nil, "soon"]
        let calls = Locked(0)
        let value = try await policy.run { () async throws(AccountClientError) -> String in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            guard call <= headers.count - 1 else { return "done" }
            RetryAfterHint.current?.record(headers[call - 1])
            throw Self.busy
        }
        #expect(value == "done")
        // 2 s as asked; 600 s bounded to maxDelay; no header and a malformed one: the
        // backoff, which kept doubling underneath (200 ms, 400 ms, 800 ms)
        #expect(waits.withLock { $0 } == [.seconds(2), .seconds(5), .milliseconds(800)])
    }

    @Test func aHintDoesNotLeakIntoTheNextAttemptAndPermanentErrorsAreNotRetried() async throws {
        let (policy, waits) = Self.recording()
        let calls = Locked(0)
        await #expect(throws: AccountClientError.server(status: 409, code: nil, message: "conflict")) {
            try await policy.run { () async throws(AccountClientError) -> Void in
                let call = calls.withLock { count in
                    count += 1
                    return count
                }
                if call == 1 {
                    RetryAfterHint.current?.record("3")
                    throw Self.busy
                }
                if call == 2 { throw AccountClientError.unreachable(server: "s", reason: "down") }
                throw AccountClientError.server(status: 409, code: nil, message: "conflict")
            }
        }
        #expect(waits.withLock { $0 } == [.seconds(3), .milliseconds(400)])
    }

    /// The header travels from the HTTP answer through `AccountClient` to the policy.
    @Test func anAccountClientAnswerCarriesItsRetryAfterToThePolicy() async throws {
        let transport = FixedAnswerTransport(
            status: 429, headers: [(name: "Retry-After", value: "4")],
            body: #"{"code":"SYNC_BUSY","message":"Sync writes are queued"}"#)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let client = AccountClient(
            server: try #require(URL(string: "http://127.0.0.1:9")),
            profile: Profile(directory: directory.url, clock: ManualClock(UnixMillis(1_767_225_600_000))),
            transport: transport)
        let (policy, waits) = Self.recording(attempts: 3)
        await #expect(
            throws: AccountClientError.server(status: 429, code: .syncBusy, message: "Sync writes are queued")
        ) {
            try await policy.run { () async throws(AccountClientError) in try await client.pushNodes([]) }
        }
        #expect(transport.requests.count == 3)
        #expect(waits.withLock { $0 } == [.seconds(4), .seconds(4)])
    }

    @Test func aCancelledSyncIsNotRetried() async {
        let (policy, waits) = Self.recording()
        let calls = Locked(0)
        let outcome = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await policy.run { () async throws(AccountClientError) -> Int in
                calls.withLock { $0 += 1 }
                throw .unreachable(server: "test", reason: "cancelled")
            }
        }.result
        #expect(throws: AccountClientError.self) { try outcome.get() }
        #expect(calls.withLock { $0 } == 1)
        #expect(waits.withLock { $0 }.isEmpty)
    }
}
