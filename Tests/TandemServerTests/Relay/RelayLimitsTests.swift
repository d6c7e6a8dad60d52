import Foundation
import GRDB
import TandemAPI
import TandemBasics
import TandemTesting
import TestSupport
import Testing

@testable import TandemServer
@testable import TandemServerStore

/// Bounds that keep the relay cheap: the rate limiter's memory and the index behind the
/// hottest indexer page.
@Suite struct RelayLimitsTests {
    @Test func tokenBucketsRefillAtTheSustainedRateAndStayBoundedInMemory() async throws {
        let clock = ManualClock(UnixMillis(1_800_000_000_000))
        let limiter = TokenBucketLimiter(clock: clock, policy: .init(burst: 2, perSecond: 1, maxKeys: 100))
        #expect(await limiter.admit(["a"]) == nil)
        #expect(await limiter.admit(["a"]) == nil)
        #expect(await limiter.admit(["a"]) == 1)
        clock.advance(by: .seconds(1))
        #expect(await limiter.admit(["a"]) == nil)
        for index in 0..<1_000 { _ = await limiter.admit(["client-\(index)"]) }
        #expect(await limiter.keyCount <= 100)
    }

    @Test func contextualMessagesBySenderIsAnIndexSeekWithoutASort() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteServerStore(fileURL: directory.url.appendingPathComponent("tandem.sqlite"))
        let details = try await store.database.asyncRead { db in
            try Row.fetchAll(
                db,
                sql: """
                    EXPLAIN QUERY PLAN SELECT * FROM kasia_tx
                    WHERE kind = 'contextual_message' AND sender = 'kaspa:a' AND tag = '00' AND block_time >= 5
                    ORDER BY block_time LIMIT 50
                    """
            ).map { row -> String in row["detail"] }
        }
        #expect(details.contains { $0.contains("USING INDEX kasia_tx_by_sender") }, "\(details)")
        #expect(!details.contains { $0.contains("TEMP B-TREE") }, "\(details)")
    }
}
