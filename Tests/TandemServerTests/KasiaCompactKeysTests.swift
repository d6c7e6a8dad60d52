import Foundation
import GRDB
import TandemBasics
import TandemTesting
import TestSupport
import Testing

@testable import TandemServer
@testable import TandemServerStore

/// SQLite's compact relay keys (issue 49 item 3): the 8-byte transaction key orders as the id
/// does, ids sharing a key stay apart, and the `v11-kasia-compact-keys` migration keeps every
/// row a file held before it, read the same way.
@Suite struct KasiaCompactKeysTests {
    /// 64 lowercase hex digits from `random`, or with its first 16 digits given.
    static func txID(_ random: inout SeededRandom, prefix: String? = nil) -> String {
        let words = (0..<4).map { _ in String(format: "%016llx", random.next()) }
        return (prefix ?? words[0]) + words[1...].joined()
    }

    @Test func keysCompareAsTheIdsCompareAsText() {
        var random = SeededRandom(seed: 49_3)
        for _ in 0..<5_000 {
            // Each pair shares a random prefix of 0–16 digits, so equal and near keys are tried too.
            let first = Self.txID(&random)
            let shared = String(first.prefix(Int(random.next() % 17)))
            let tail = Self.txID(&random)
            let second = shared + tail.dropFirst(shared.count)
            let keys = (SQLiteKasiaKeys.transactionKey(first), SQLiteKasiaKeys.transactionKey(second))
            if keys.0 < keys.1 { #expect(first < second) }
            if keys.0 > keys.1 { #expect(first > second) }
            if first < second { #expect(keys.0 <= keys.1) }
        }
        #expect(SQLiteKasiaKeys.transactionKey(String(repeating: "0", count: 64)) == Int64.min)
        #expect(SQLiteKasiaKeys.transactionKey(String(repeating: "f", count: 64)) == Int64.max)
        #expect(SQLiteKasiaKeys.transactionKey("8" + String(repeating: "0", count: 63)) == 0)
        // Other shapes all key alike and are still told apart by the full id.
        for odd in ["", "tx-a", String(repeating: "A", count: 64), "0123456789abcde", "0123456789abcdeg00"] {
            #expect(SQLiteKasiaKeys.transactionKey(odd) == Int64.min, "\(odd)")
        }
    }

    @Test func idsSharingAKeyAreStoredAndReadApart() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteServerStore(fileURL: directory.url.appendingPathComponent("tandem.sqlite"))
        var random = SeededRandom(seed: 49_31)
        let prefix = String(format: "%016llx", random.next())
        let drafts = (0..<4).map { index in
            var draft = StoreContractTests.draft(index)
            draft.txID = Self.txID(&random, prefix: prefix)
            return draft
        }
        #expect(Set(drafts.map { SQLiteKasiaKeys.transactionKey($0.txID) }).count == 1)
        try await store.withServices {
            for (index, draft) in drafts.enumerated() {
                let outcome = try await store.appendKasiaRecord(draft, now: UnixMillis(1_000))
                #expect(outcome == .inserted(KasiaRecord(draft: draft, relayedAt: Int64(1_000 + index))))
            }
            for (index, draft) in drafts.enumerated() {
                let stored = KasiaRecord(draft: draft, relayedAt: Int64(1_000 + index))
                #expect(try await store.kasiaRecord(txID: draft.txID) == stored)
                #expect(try await store.appendKasiaRecord(draft, now: UnixMillis(2_000)) == .existing(stored))
            }
        }
        var other = drafts[0]
        other.txID = Self.txID(&random, prefix: prefix)
        #expect(try await store.kasiaRecord(txID: other.txID) == nil)
        let page = try await store.kasiaRecords(
            .contextualMessages(sender: "kaspa:alice", aliasHex: "616263"), from: UnixMillis(0), limit: 10)
        #expect(page.map(\.draft) == drafts)
    }

    /// Rows of every shape written by the schema before (`v10-chat-history`): relayed, accepted
    /// from the chain, with and without receivers, under several tags, two of them tied on block
    /// time with ids out of insertion order and two sharing a key.
    @Test func rowsStoredBeforeTheCompactKeysSurviveTheMigration() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("tandem.sqlite")
        var random = SeededRandom(seed: 49_32)
        let shared = String(format: "%016llx", random.next())
        var records: [KasiaRecord] = []
        func add(_ draft: KasiaRecordDraft, blockTime: Int64, acceptance: KasiaAcceptance? = nil) {
            let position = Int64(500 + records.count)
            records.append(
                KasiaRecord(draft: draft, blockTime: UnixMillis(blockTime), position: position, acceptance: acceptance))
        }
        var ids = (0..<7).map { index in Self.txID(&random, prefix: index < 2 ? shared : nil) }
        ids[2] = "f" + ids[2].dropFirst()
        ids[3] = "0" + ids[3].dropFirst()
        func draft(_ index: Int, kind: KasiaRecordKind, sender: String, receiver: String?, tag: String)
            -> KasiaRecordDraft
        {
            var draft = StoreContractTests.draft(index, kind: kind, sender: sender, receiver: receiver, tag: tag)
            draft.txID = ids[index]
            return draft
        }
        add(draft(0, kind: .contextualMessage, sender: "kaspa:alice", receiver: nil, tag: "616263"), blockTime: 100)
        add(draft(1, kind: .contextualMessage, sender: "kaspa:alice", receiver: nil, tag: "616263"), blockTime: 101)
        add(
            draft(2, kind: .handshake, sender: "kaspa:bob", receiver: "kaspa:alice", tag: ""), blockTime: 102,
            acceptance: KasiaAcceptance(block: "b1", daaScore: 7))
        add(
            draft(3, kind: .handshake, sender: "kaspa:carol", receiver: "kaspa:alice", tag: ""), blockTime: 102,
            acceptance: KasiaAcceptance(block: "b1", daaScore: 7))
        add(draft(4, kind: .payment, sender: "kaspa:alice", receiver: "kaspa:dave", tag: ""), blockTime: 103)
        add(draft(5, kind: .selfStash, sender: "kaspa:alice", receiver: nil, tag: "7363"), blockTime: 104)
        // Every kind, so the migration's written-out codes are held to `SQLiteKasiaKeys.code`.
        add(draft(6, kind: .broadcast, sender: "kaspa:erin", receiver: nil, tag: "6263"), blockTime: 105)
        #expect(Set(records.map(\.draft.kind)) == Set(KasiaRecordKind.allCases))
        let written = records
        do {
            let queue = try DatabaseQueue(path: file.path)
            try SQLiteServerStore.migrator.migrate(queue, upTo: "v10-chat-history")
            try await queue.write { db in
                for record in written {
                    let draft = record.draft
                    try db.execute(
                        sql: """
                            INSERT INTO kasia_tx (seq, tx_id, block_time, kind, sender, receiver, amount, tag, body, payload,
                                                  nonce, signature, accepting_block, accepting_daa_score, relayed_time)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            record.position, draft.txID, record.blockTime.rawValue, draft.kind.rawValue, draft.sender,
                            draft.receiver, draft.amount, draft.tag, Data(draft.body), Data(draft.payload),
                            String(draft.nonce), draft.signature, record.acceptance?.block,
                            record.acceptance.map { Int64($0.daaScore) },
                            record.acceptance == nil ? record.blockTime.rawValue : nil,
                        ])
                }
            }
        }
        let store = try SQLiteServerStore(fileURL: file)
        for record in records { #expect(try await store.kasiaRecord(txID: record.draft.txID) == record) }
        let zero = UnixMillis(0)
        #expect(
            try await store.kasiaRecords(
                .contextualMessages(sender: "kaspa:alice", aliasHex: "616263"), from: zero, limit: 9)
                == Array(records[0...1]))
        // Tied on block time: the page is in id order, as before the migration.
        #expect(
            try await store.kasiaRecords(.handshakesByReceiver("kaspa:alice"), from: zero, limit: 9) == [
                records[3], records[2],
            ])
        #expect(try await store.kasiaRecords(.handshakesBySender("kaspa:bob"), from: zero, limit: 9) == [records[2]])
        #expect(try await store.kasiaRecords(.paymentsByReceiver("kaspa:dave"), from: zero, limit: 9) == [records[4]])
        #expect(
            try await store.kasiaRecords(.selfStashes(owner: "kaspa:alice", scopeHex: "7363"), from: zero, limit: 9)
                == [records[5]])
        #expect(try await store.kasiaRecords(.paymentsBySender("kaspa:nobody"), from: zero, limit: 9).isEmpty)
        #expect(try await store.kasiaRecords(after: 0, watching: nil, limit: 99) == records)
        let watch = KasiaWatch(addresses: ["kaspa:dave", "kaspa:carol"], aliasHexes: ["616263"])
        #expect(
            try await store.kasiaRecords(after: 500, watching: watch, limit: 99) == [
                records[1], records[3], records[4],
            ])
        #expect(
            try await store.kasiaCounts()
                == KasiaCounts(byKind: [
                    .contextualMessage: 2, .handshake: 2, .payment: 1, .selfStash: 1, .broadcast: 1,
                ]))
        #expect(try await store.latestKasiaPosition() == 506)
        var next = records[0].draft
        next.txID = Self.txID(&random, prefix: shared)
        try await store.withServices { [next] in
            #expect(try await store.appendKasiaRecord(written[1].draft, now: UnixMillis(5)) == .existing(written[1]))
            let outcome = try await store.appendKasiaRecord(next, now: UnixMillis(5))
            #expect(outcome == .inserted(KasiaRecord(draft: next, relayedAt: 507)))
            #expect(try await store.kasiaRecord(txID: next.txID) == outcome.record)
        }
    }
}
