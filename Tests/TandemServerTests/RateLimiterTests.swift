import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import TandemAPI
import TandemBasics
import TandemTesting
import Testing

@testable import TandemServer

/// The auth rate limiter's memory bound and client grouping (issue 14, outside audit).
@Suite struct RateLimiterTests {
    @Test func aFloodOfUniqueUnknownAuthPathsLeavesTheTableEmpty() async throws {
        let server = try TestServer(rateLimiting: true)
        let limiter = RateLimiter(clock: server.clock)
        let hub = RelayHub(store: server.store, capacity: 16, logger: Logger(label: "test"))
        let router = buildRouter(
            configuration: server.configuration, store: server.store, secret: TestServer.secret, hub: hub,
            syncWrites: SyncWriteGate(for: server.store, limits: server.configuration.syncWrites), rateLimiter: limiter
        ).router
        try await Application(router: router).test(.router) { client in
            let api = APIClient(client: client)
            let padding = String(repeating: "x", count: 200)
            for index in 0..<20_000 {
                let answer = try await api.send(
                    .post, "/api/auth/flood-\(index)-\(padding)", json: "{}", origin: "http://localhost")
                if index % 5_000 == 0 { #expect(answer.status == .notFound) }
            }
            #expect(await limiter.windowCount == 0)
            // A registered route does get a window, keyed on the route rather than the path.
            _ = try await api.signIn("nobody_a", password: "x")
            #expect(await limiter.windowCount == 1)
        }
    }

    @Test func theTableIsBoundedWhateverTheKeys() async throws {
        let clock = ManualClock(UnixMillis(1_800_000_000_000))
        let limiter = RateLimiter(clock: clock, capacity: 100)
        let rule = RateLimiter.Rule(limit: 3, window: 10)
        for index in 0..<20_000 { #expect(await limiter.admit(key: "client-\(index)", rule: rule) == nil) }
        #expect(await limiter.windowCount == 100)
        // The most recent clients keep their counts.
        for _ in 0..<2 { _ = await limiter.admit(key: "client-19999", rule: rule) }
        #expect(await limiter.admit(key: "client-19999", rule: rule) != nil)
    }

    @Test(arguments: [
        ("2001:db8::1:2:3:4", "2001:db8::5:2:3:4"),
        ("2001:db8:0:0:1::", "2001:0db8:0000:0000:ffff:ffff:ffff:ffff"),
        ("2001:DB8::1", "2001:db8:0:0:9:8:7:6"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("fe80::1%eth0", "fe80::2"),
    ])
    func addressesInOneSlash64ShareAKey(first: String, second: String) {
        #expect(RateLimiter.clientKey(first) == RateLimiter.clientKey(second))
    }

    @Test func relayTokenBucketsEvictTheLeastRecentlyUsedKey() async throws {
        let clock = ManualClock(UnixMillis(1_800_000_000_000))
        let limiter = TokenBucketLimiter(clock: clock, policy: .init(burst: 2, perSecond: 1, maxKeys: 100))
        #expect(await limiter.admit(["busy"]) == nil)
        #expect(await limiter.admit(["busy"]) == nil)
        for index in 0..<20_000 {
            _ = await limiter.admit(["client-\(index)"])
            if index % 50 == 0 {
                #expect(await limiter.admit(["busy"]) != nil, "busy lost its empty bucket at \(index)")
            }
        }
        #expect(await limiter.keyCount == 100)
    }

    @Test func theSlash64KeyIsTheParsedPrefix() {
        #expect(RateLimiter.clientKey("2001:db8::1:2:3:4") == "2001:db8:0:0::/64")
        #expect(RateLimiter.clientKey("192.0.2.7") == "192.0.2.7")
        #expect(RateLimiter.clientKey(nil) == "unknown")
        #expect(RateLimiter.clientKey("not an address") == "unknown")
    }

    @Test(arguments: [
        ("2001:db8:0:1::1", "2001:db8:0:2::1"),
        ("2001:db8::1", "2001:db9::1"),
        ("192.0.2.7", "192.0.2.8"),
    ])
    func addressesInDifferentSlash64sDoNot(first: String, second: String) {
        #expect(RateLimiter.clientKey(first) != RateLimiter.clientKey(second))
    }
}
