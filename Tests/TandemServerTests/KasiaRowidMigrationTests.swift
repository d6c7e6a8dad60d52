import Foundation
import GRDB
import TandemBasics
import TestSupport
import Testing

@testable import TandemServer
@testable import TandemServerStore

/// The `v4-kasia-rowid` migration (issue 11 "Figures") on a file written by the previous
/// schema: every relay row survives with its block time, pages read as before, and new rows
/// are timed after the copied ones.
@Suite struct KasiaRowidMigrationTests {
    @Test func rowsStoredBeforeTheRowidMigrationSurviveItAndNewRowsFollowThem() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("tandem.sqlite")
        let drafts = (1...3).map { StoreContractTests.draft($0) }
        do {
            let queue = try DatabaseQueue(path: file.path)
            try SQLiteServerStore.migrator.migrate(queue, upTo: "v3-sync")
            try await queue.write { db in
                for (index, draft) in drafts.enumerated() {
                    try db.execute(
                        sql:
                            """
                            INSERT INTO kasia_tx (tx_id, block_time, kind, sender, receiver, amount, tag, body, payload,
                                                  nonce, signature) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            draft.txID, 1000 + index, draft.kind.rawValue, draft.sender, draft.receiver, draft.amount,
                            draft.tag, Data(draft.body), Data(draft.payload), String(draft.nonce), draft.signature,
                        ])
                }
            }
        }
        let store = try SQLiteServerStore(fileURL: file)
        let query = KasiaIndexQuery.contextualMessages(sender: "kaspa:alice", aliasHex: "616263")
        let page = try await store.kasiaRecords(query, from: UnixMillis(0), limit: 10)
        #expect(page.map(\.draft) == drafts)
        #expect(page.map(\.blockTime) == [1000, 1001, 1002].map(UnixMillis.init))
        // v5-kasia-chain: a relayed row's position is its block time; none is accepted.
        #expect(page.map(\.position) == [1000, 1001, 1002])
        #expect(page.allSatisfy { $0.acceptance == nil })
        try await store.withServices {
            #expect(try await store.appendKasiaRecord(drafts[0], now: UnixMillis(5)) == .existing(page[0]))
            let next = try await store.appendKasiaRecord(StoreContractTests.draft(4), now: UnixMillis(5))
            #expect(next.record.blockTime == UnixMillis(1003))
            #expect(next.record.position == 1003)
        }
    }
}
