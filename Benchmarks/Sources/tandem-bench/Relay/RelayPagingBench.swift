import BenchSupport
import Foundation
import GRDB
import KasiaProtocol
import KaspaCrypto
import MicroBenchmarks
import TandemAPI
import TandemBasics
import TandemServer
import TandemServerStore

/// `contextual-messages/by-sender` pages at depth 0 and at depth `rows` in one SQLite store
/// (issue 11 "Figures": depth 1,000,000 ≤ 1.5× depth 0).
///
/// The store is the server's own (`SQLiteServerStore`, its migrations and indexes). One real
/// signed row goes in through `appendKasiaRecord`; the other `rows` are copies of it made by
/// one SQL statement in the same schema, each with its own `tx_id` and `block_time` 1…rows,
/// all from one sender on one alias — the deepest conversation possible. Pages are read with
/// the store call the indexer route makes, 50 rows (the route's maximum), samples interleaved.
struct RelayPagingBench {
    struct Result: Encodable {
        var rows: Int
        var pageRows: Int
        var fillSeconds: Double
        var depth0Microseconds: Double
        var deepMicroseconds: Double
        /// Deep page median ÷ depth-0 page median.
        var ratio: Double
    }

    let rows: Int
    let samples: Int
    static let pageRows = 50

    func run(directory: URL) async throws -> Result {
        let file = directory.appendingPathComponent("paging.sqlite")
        let store = try SQLiteServerStore(fileURL: file)
        let key = try RelayBenchFixtures.key(7)
        let alias = try RelayBenchFixtures.alias(1)
        let submission = try RelayBenchFixtures.submission(key: key, alias: alias, nonce: 1)
        let tag = alias.indexerQueryParameter
        let draft = try RelayBenchFixtures.draft(submission, alias: alias)
        // The real row sorts after every copy.
        _ = try await store.withServices {
            try await store.appendKasiaRecord(draft, now: UnixMillis(Int64(rows) + 1_000))
        }

        let clock = ContinuousClock()
        let fillStart = clock.now
        let queue = try DatabaseQueue(path: file.path)
        try await queue.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                    INSERT INTO kasia_tx (tx_key, tx_id, block_time, kind, sender_id, receiver_id, tag_id, amount, body,
                                          payload, nonce, signature)
                    SELECT i + (-9223372036854775807 - 1), printf('%016x%048x', i, 0), i, kind, sender_id, receiver_id,
                           tag_id, amount, body, payload, nonce, signature
                    FROM n, (SELECT * FROM kasia_tx WHERE tx_id = ?)
                    """, arguments: [rows, draft.txID])
        }
        try queue.close()
        let fillSeconds = (clock.now - fillStart).nanoseconds / 1e9

        let query = KasiaIndexQuery.contextualMessages(sender: submission.sender, aliasHex: tag)
        let shallow = UnixMillis(0)
        let deep = UnixMillis(Int64(max(rows - Self.pageRows + 1, 0)))
        for cursor in [shallow, deep] {
            let page = try await store.kasiaRecords(query, from: cursor, limit: Self.pageRows)
            guard page.count == min(Self.pageRows, rows + 1) else {
                throw CLIError("relay bench: a page at block_time \(cursor.rawValue) held \(page.count) rows")
            }
        }
        var times: [[Double]] = [[], []]
        let iterations = 200
        for sample in 0...samples {
            for (index, cursor) in [shallow, deep].enumerated() {
                let start = clock.now
                for _ in 0..<iterations {
                    blackHole(try await store.kasiaRecords(query, from: cursor, limit: Self.pageRows))
                }
                if sample > 0 { times[index].append((clock.now - start).nanoseconds / 1e3 / Double(iterations)) }
            }
        }
        let medians = times.map { $0.sorted()[$0.count / 2] }
        return Result(
            rows: rows, pageRows: Self.pageRows, fillSeconds: fillSeconds, depth0Microseconds: medians[0],
            deepMicroseconds: medians[1], ratio: medians[1] / medians[0])
    }
}
