import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import TandemAPI
import TandemBasics
import TandemServer
import TandemServerStore
import TestSupport
import Testing

/// The relay's store methods on both backends (issue 11 items 2 and 6).
extension StoreContractTests {
    static func draft(
        _ index: Int, kind: KasiaRecordKind = .contextualMessage, sender: String = "kaspa:alice",
        receiver: String? = nil, tag: String = "616263"
    ) -> KasiaRecordDraft {
        KasiaRecordDraft(
            txID: String(format: "%064x", index), kind: kind, sender: sender, receiver: receiver,
            amount: receiver == nil ? 0 : 5, tag: tag, body: Array("body \(index)".utf8),
            payload: Array("ciph_msg:\(index)".utf8), nonce: UInt64.max - UInt64(index),
            signature: String(repeating: "ab", count: 64))
    }

    @Test(arguments: backends)
    func kasiaRowsAreStoredOnceWithUniqueIncreasingBlockTimes(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            let t0 = UnixMillis(1_800_000_000_000)
            let first = try await store.appendKasiaRecord(Self.draft(1), now: t0)
            #expect(first == .inserted(KasiaRecord(draft: Self.draft(1), relayedAt: t0.rawValue)))
            // The same tx again: the stored row, unchanged.
            #expect(
                try await store.appendKasiaRecord(Self.draft(1), now: UnixMillis(1_900_000_000_000))
                    == .existing(first.record))
            // A clock that stands still or goes back still yields later times.
            #expect(
                try await store.appendKasiaRecord(Self.draft(2), now: t0).record.blockTime
                    == UnixMillis(t0.rawValue + 1))
            #expect(
                try await store.appendKasiaRecord(Self.draft(3), now: UnixMillis(5)).record.blockTime
                    == UnixMillis(t0.rawValue + 2))
            #expect(
                try await store.appendKasiaRecord(Self.draft(4), now: UnixMillis(t0.rawValue + 100)).record.blockTime
                    == UnixMillis(t0.rawValue + 100))
            #expect(try await store.kasiaRecord(txID: Self.draft(2).txID)?.draft == Self.draft(2))
            #expect(try await store.latestKasiaPosition() == t0.rawValue + 100)
            #expect(try await store.kasiaCounts()[.contextualMessage] == 4)
        }
    }

    @Test(arguments: backends)
    func kasiaIndexQueriesSelectByKindAddressAndTagFromAnInclusiveCursor(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            let drafts = [
                Self.draft(1, kind: .handshake, receiver: "kaspa:bob", tag: ""),
                Self.draft(2),
                Self.draft(3, tag: "646566"),
                Self.draft(4, kind: .payment, receiver: "kaspa:bob", tag: ""),
                Self.draft(5, kind: .selfStash, tag: ""),
                Self.draft(6, kind: .selfStash, tag: "7361766564"),
                Self.draft(7, sender: "kaspa:carol"),
            ]
            for (index, draft) in drafts.enumerated() {
                _ = try await store.appendKasiaRecord(draft, now: UnixMillis(1000 + Int64(index)))
            }
            func ids(_ query: KasiaIndexQuery, from: Int64 = 0, limit: Int = 10) async throws -> [String] {
                try await store.kasiaRecords(query, from: UnixMillis(from), limit: limit).map(\.draft.txID)
            }
            #expect(try await ids(.handshakesBySender("kaspa:alice")) == [drafts[0].txID])
            #expect(try await ids(.handshakesByReceiver("kaspa:bob")) == [drafts[0].txID])
            #expect(try await ids(.contextualMessages(sender: "kaspa:alice", aliasHex: "616263")) == [drafts[1].txID])
            #expect(try await ids(.paymentsByReceiver("kaspa:bob")) == [drafts[3].txID])
            #expect(try await ids(.paymentsBySender("kaspa:bob")) == [])
            #expect(try await ids(.selfStashes(owner: "kaspa:alice", scopeHex: "")) == [drafts[4].txID])
            #expect(try await ids(.selfStashes(owner: "kaspa:alice", scopeHex: "7361766564")) == [drafts[5].txID])
            #expect(
                try await ids(.contextualMessages(sender: "kaspa:alice", aliasHex: "616263"), from: 1001) == [
                    drafts[1].txID
                ])
            #expect(try await ids(.contextualMessages(sender: "kaspa:alice", aliasHex: "616263"), from: 1002) == [])
            let watch = KasiaWatch(addresses: ["kaspa:bob"], aliasHexes: ["616263"])
            let watched = try await store.kasiaRecords(after: 0, watching: watch, limit: 10).map(
                \.draft.txID)
            #expect(watched == [drafts[0], drafts[1], drafts[3], drafts[6]].map(\.txID))
            #expect(
                try await store.kasiaRecords(after: 1003, watching: nil, limit: 2).map(\.draft.txID)
                    == [drafts[4].txID, drafts[5].txID])
        }
    }

    /// The classic hole (ARCHITECTURE.md "Cursors that never skip a row"): several writers —
    /// on PostgreSQL, two stores as two instances, with skewed clocks — and a reader paging by
    /// the max block_time it has seen. Every committed row must be read.
    @Test(arguments: backends)
    func concurrentSubmittersAndAPagingReaderMissNoRow(backend: Backend) async throws {
        try await Self.withStores(backend, count: 2) { stores in
            let writers = 4
            let perWriter = 60
            let query = KasiaIndexQuery.contextualMessages(sender: "kaspa:alice", aliasHex: "616263")
            let done = WritersDone()
            let reader = stores[stores.count - 1]
            // The reader pages while the writers write, then once more after they finish;
            // a row committed behind its cursor would never be seen.
            async let seen = Self.pageUntilDone(reader, query, done)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<writers {
                    let store = stores[writer % stores.count]
                    group.addTask {
                        for index in 0..<perWriter {
                            // Skewed clocks: odd writers run five seconds behind.
                            let skew = Int64(writer % 2 == 0 ? 0 : -5_000)
                            let now = UnixMillis(1_800_000_000_000 + skew + Int64(index))
                            _ = try await store.appendKasiaRecord(Self.draft(writer * 1000 + index), now: now)
                        }
                    }
                }
                try await group.waitForAll()
            }
            await done.set()
            let read = try await seen
            #expect(read.count == writers * perWriter)
        }
    }

    /// Identical `tx_id`s racing (issue 11: a client resending while its first try is still
    /// in flight). On SQLite they land in the same commit group as each other and as distinct
    /// rows; on PostgreSQL they race through two instances. Exactly one is stored, every other
    /// gets the stored row as `.existing`, and nothing fails — not even the distinct rows
    /// committed in the same group.
    @Test(arguments: backends)
    func identicalTxIDsRacingInOneCommitGroupStoreOneRowAndAnswerTheRestAsDuplicates(backend: Backend) async throws {
        try await Self.withStores(backend, count: 2) { stores in
            let same = Self.draft(500)
            let now = UnixMillis(1_800_000_000_000)
            let outcomes = try await withThrowingTaskGroup(of: (Bool, KasiaAppendOutcome).self) { group in
                for index in 0..<48 {
                    let store = stores[index % stores.count]
                    // Every fourth submission is a distinct row sharing the group.
                    let draft = index % 4 == 3 ? Self.draft(600 + index) : same
                    group.addTask { (draft == same, try await store.appendKasiaRecord(draft, now: now)) }
                }
                var outcomes: [(Bool, KasiaAppendOutcome)] = []
                for try await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            let identical = outcomes.filter(\.0).map(\.1)
            let inserted = identical.filter { if case .inserted = $0 { true } else { false } }
            #expect(identical.count == 36)
            #expect(inserted.count == 1)
            let stored = try #require(try await stores[0].kasiaRecord(txID: same.txID))
            #expect(stored.draft == same)
            #expect(identical.allSatisfy { $0.record == stored })
            let distinct = outcomes.filter { !$0.0 }.map(\.1)
            #expect(distinct.count == 12)
            #expect(distinct.allSatisfy { if case .inserted = $0 { true } else { false } })
            let rows = try await stores[0].kasiaRecords(after: 0, watching: nil, limit: 100)
            #expect(rows.count == 13)
            #expect(Set(rows.map(\.blockTime)).count == 13)
        }
    }

    /// Submissions committed together (SQLite and PostgreSQL both group them): each row's
    /// block time is unique, never before the `now` it was submitted with, and — the clocks
    /// here running backwards and standing still — later than every row committed before it.
    @Test(arguments: backends)
    func rowsCommittedInOneGroupGetUniqueTimesNoEarlierThanTheirOwnClock(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            let base: Int64 = 1_800_000_000_000
            let nows = (0..<40).map { index in UnixMillis(base + Int64(index % 3 == 0 ? 50 : 40 - index)) }
            let outcomes = try await withThrowingTaskGroup(of: (UnixMillis, KasiaAppendOutcome).self) { group in
                for (index, now) in nows.enumerated() {
                    group.addTask { (now, try await store.appendKasiaRecord(Self.draft(700 + index), now: now)) }
                }
                var outcomes: [(UnixMillis, KasiaAppendOutcome)] = []
                for try await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            #expect(outcomes.allSatisfy { if case .inserted = $0.1 { true } else { false } })
            #expect(outcomes.allSatisfy { $0.1.record.blockTime >= $0.0 })
            #expect(Set(outcomes.map(\.1.record.blockTime)).count == 40)
            let rows = try await store.kasiaRecords(after: 0, watching: nil, limit: 100)
            #expect(rows.map(\.draft.txID).sorted() == outcomes.map(\.1.record.draft.txID).sorted())
            #expect(rows.map(\.blockTime) == outcomes.map(\.1.record.blockTime).sorted())
            let later = try await store.appendKasiaRecord(Self.draft(799), now: UnixMillis(base))
            #expect(later.record.blockTime > rows.map(\.blockTime).max() ?? UnixMillis(0))
        }
    }

    /// Pages `query` by the max block_time seen (limit 7) until the writers are done and a
    /// last pass finds nothing new.
    static func pageUntilDone(_ reader: any ServerStore, _ query: KasiaIndexQuery, _ done: WritersDone) async throws
        -> Set<String>
    {
        var cursor = UnixMillis(0)
        var seen: Set<String> = []
        var finalPass = false
        while true {
            let writersFinished = await done.value
            let page = try await reader.kasiaRecords(query, from: cursor, limit: 7)
            let before = seen.count
            for record in page { seen.insert(record.draft.txID) }
            cursor = page.map(\.blockTime).max() ?? cursor
            if page.count < 7 || seen.count == before {
                if finalPass { return seen }
                finalPass = writersFinished
                await Task.yield()
            }
        }
    }

    /// Runs `body` with `count` stores on one database: PostgreSQL gets one client per store
    /// (separate instances); SQLite has one writer process, so one store serves all.
    static func withStores(_ backend: Backend, count: Int, _ body: ([any ServerStore]) async throws -> Void)
        async throws
    {
        switch backend {
        case .sqlite:
            try await withStore(backend) { store in try await body(Array(repeating: store, count: count)) }
        case .postgres:
            let url = try #require(ProcessInfo.processInfo.environment["POSTGRES_URL"])
            var logger = Logger(label: "contract")
            logger.logLevel = .error
            let stores = try (0..<count).map { _ in try PostgresServerStore(url: url, logger: logger) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for store in stores { group.addTask { try await store.runServices() } }
                try await stores[0].truncateAll()
                try await body(stores)
                group.cancelAll()
            }
        }
    }
}

extension StoreContractTests {
    /// Issue 50 item 4: a row whose payload is over the relay's limit (stored before the limit
    /// existed) is served by neither the indexer reads nor the stream replay; the rows around it are.
    @Test(arguments: backends)
    func rowsOverThePayloadLimitAreNotServed(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            var oversized = Self.draft(2, kind: .payment, receiver: "kaspa:bob", tag: "")
            oversized.payload = [UInt8](repeating: 0x61, count: KasiaPayloadLimit.bytes + 1)
            oversized.body = [UInt8](repeating: 0x61, count: KasiaPayloadLimit.bytes)
            var fits = Self.draft(3, kind: .payment, receiver: "kaspa:bob", tag: "")
            fits.payload = [UInt8](repeating: 0x61, count: KasiaPayloadLimit.bytes)
            let drafts = [Self.draft(1, kind: .payment, receiver: "kaspa:bob", tag: ""), oversized, fits]
            for (index, draft) in drafts.enumerated() {
                _ = try await store.appendKasiaRecord(draft, now: UnixMillis(1_800_000_000_000 + Int64(index)))
            }
            let served = [drafts[0].txID, drafts[2].txID]
            let byReceiver = try await store.kasiaRecords(
                .paymentsByReceiver("kaspa:bob"), from: UnixMillis(0), limit: 50)
            #expect(byReceiver.map(\.draft.txID) == served)
            let bySender = try await store.kasiaRecords(
                .paymentsBySender("kaspa:alice"), from: UnixMillis(0), limit: 50)
            #expect(bySender.map(\.draft.txID) == served)
            #expect(try await store.kasiaRecords(after: 0, watching: nil, limit: 50).map(\.draft.txID) == served)
            let watch = KasiaWatch(addresses: ["kaspa:bob"], aliasHexes: [])
            #expect(try await store.kasiaRecords(after: 0, watching: watch, limit: 50).map(\.draft.txID) == served)
            // Still stored: a later, larger limit would serve it again.
            #expect(try await store.kasiaRecord(txID: oversized.txID) != nil)
        }
    }
}
