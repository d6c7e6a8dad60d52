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

    /// The query plan of a page read with `condition`, in the store's own schema.
    private static func pagePlan(_ condition: String) async throws -> [String] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteServerStore(fileURL: directory.url.appendingPathComponent("tandem.sqlite"))
        return try await store.database.asyncRead { db in
            try Row.fetchAll(
                db,
                sql: """
                    EXPLAIN QUERY PLAN \(SQLiteKasiaKeys.selectRecords)
                    WHERE \(condition) AND t.block_time >= 5 AND length(t.payload) <= 1000
                    ORDER BY t.block_time, t.tx_key, t.tx_id LIMIT 50
                    """
            ).map { row -> String in row["detail"] }
        }
    }

    /// The page query the store runs (its compact keys, issue 49 item 3) seeks the sender index
    /// and reads in its order: at most rows tied on block time and the 8-byte key are sorted.
    @Test func contextualMessagesBySenderIsAnIndexSeekWithoutASort() async throws {
        let details = try await Self.pagePlan(
            """
            t.sender_id = (SELECT id FROM kasia_address WHERE address = 'kaspa:a')
                AND t.tag_id = (SELECT id FROM kasia_tag WHERE tag = '00') AND t.kind = 2
            """)
        #expect(details.contains { $0.hasPrefix("SEARCH t USING INDEX kasia_tx_by_sender") }, "\(details)")
        #expect(!details.contains { $0.hasPrefix("SCAN") }, "\(details)")
        #expect(!details.contains { $0.contains("TEMP B-TREE") && !$0.contains("RIGHT PART") }, "\(details)")
    }

    /// The by-receiver page seeks the partial receiver index the same way.
    @Test func handshakesByReceiverIsAnIndexSeekWithoutASort() async throws {
        let details = try await Self.pagePlan(
            "t.receiver_id = (SELECT id FROM kasia_address WHERE address = 'kaspa:a') AND t.kind = 1")
        #expect(details.contains { $0.hasPrefix("SEARCH t USING INDEX kasia_tx_by_receiver") }, "\(details)")
        #expect(!details.contains { $0.hasPrefix("SCAN") }, "\(details)")
        #expect(!details.contains { $0.contains("TEMP B-TREE") && !$0.contains("RIGHT PART") }, "\(details)")
    }
}
