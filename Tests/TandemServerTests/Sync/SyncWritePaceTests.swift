import Foundation
import TandemAPI
import TandemServer
import TandemServerStore
import Testing

/// Issue 50 item 6: one account's sync writes have a pace (bursts, then a sustained rate); past
/// it the server answers 429 `RATE_LIMITED` with `Retry-After`, and other accounts are untouched.
@Suite struct SyncWritePaceTests {
    @Test func anAccountPastItsPaceIsAnswered429UntilItsBucketRefills() async throws {
        var server = try TestServer(rateLimiting: true)
        server.configuration.syncWrites = SyncWriteLimits(writeBurst: 3, writesPerSecond: 0.5)
        defer { server.directory.remove() }
        let clock = server.clock
        try await server.test { client in
            let anna = try await SyncAccount.make(client, "anna")
            let bob = try await SyncAccount.make(client, "bob")
            let path = APIPath.contactRecords
            // Binding the device key (SyncAccount.make) was one write; two more fit the burst.
            for byte in 1...2 {
                let put = try await ContactRecordRouteTests.put(anna, [(byte, "box", 0)], at: path)
                #expect(put.status == .ok, "write \(byte)")
            }
            let refused = try await ContactRecordRouteTests.put(anna, [(9, "box", 0)], at: path)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.errorCode == "RATE_LIMITED")
            #expect(refused.headers[.retryAfter] == "2")
            #expect(try await ContactRecordRouteTests.all(anna, at: path).count == 2, "nothing of it was written")
            // Another account writes on.
            #expect(try await ContactRecordRouteTests.put(bob, [(1, "box", 0)], at: path).status == .ok)
            // Once the bucket refills, Anna writes again.
            clock.advance(by: .seconds(2))
            #expect(try await ContactRecordRouteTests.put(anna, [(9, "box", 0)], at: path).status == .ok)
        }
    }

    @Test func aWritePastTheAccountsQuotaIsAnswered413() async throws {
        var server = try TestServer()
        server.configuration.syncQuotas = SyncQuotas(contacts: SyncQuota(rows: 1, bytes: 1_000))
        defer { server.directory.remove() }
        try await server.test { client in
            let anna = try await SyncAccount.make(client, "anna")
            let path = APIPath.contactRecords
            #expect(try await ContactRecordRouteTests.put(anna, [(1, "box", 0)], at: path).status == .ok)
            let refused = try await ContactRecordRouteTests.put(anna, [(2, "box", 0)], at: path)
            #expect(refused.status == .contentTooLarge)
            #expect(refused.errorCode == "QUOTA_EXCEEDED")
            #expect(try await ContactRecordRouteTests.all(anna, at: path).count == 1)
            // Replacing the one record it has still goes through.
            #expect(try await ContactRecordRouteTests.put(anna, [(1, "new box", 1)], at: path).status == .ok)
        }
    }
}
