import Foundation
import TandemAPI
import TandemBasics
import TandemServer
import TandemServerStore
import Testing

/// Per-account storage quotas of the synced collections (issue 50 item 6) on both backends: a
/// write that would pass a quota is refused whole, one that shrinks what is kept always goes
/// through, and what each account holds is counted in the write's own transaction.
extension StoreContractTests {
    @Test(arguments: backends)
    func aPushPastTheNodeQuotaIsRefusedWholeAndCountsNothing(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            try await Self.makeUsers(store, ["u1", "u2"])
            let u1 = AccountID("u1")
            let quota = SyncQuota(rows: 3, bytes: 1_000)
            let first = [Self.node("n1", task: "t1", create: true), Self.node("n2", task: "t1", parents: ["n1"])]
            let bytes = Int64(first.reduce(0) { $0 + $1.json.count })
            #expect(
                try await store.appendRedoNodes(first, userID: u1, now: Self.now, quota: quota).allSatisfy {
                    $0 == .accepted
                })
            #expect(try await store.syncUsage(userID: u1, collection: "nodes") == (2, bytes))
            // Two more would make four: refused, and nothing of it is stored or counted.
            let next = [Self.node("n3", task: "t1", parents: ["n2"]), Self.node("n4", task: "t1", parents: ["n3"])]
            await #expect {
                try await store.appendRedoNodes(next, userID: u1, now: Self.now, quota: quota)
            } throws: { error in
                guard case ServerStoreError.quotaExceeded(let reason) = error else { return false }
                return reason.contains("3 rows")
            }
            #expect(try await store.syncUsage(userID: u1, collection: "nodes") == (2, bytes))
            #expect(try await store.redoNodes(userID: u1, after: 0, limit: 10).count == 2)
            // A push of nodes already stored adds nothing and goes through; one more fits.
            _ = try await store.appendRedoNodes(first, userID: u1, now: Self.now, quota: quota)
            _ = try await store.appendRedoNodes(Array(next.prefix(1)), userID: u1, now: Self.now, quota: quota)
            #expect(try await store.syncUsage(userID: u1, collection: "nodes").rows == 3)
            // Another account has its own count.
            let theirs = [Self.node("m1", task: "t2", create: true)]
            _ = try await store.appendRedoNodes(theirs, userID: AccountID("u2"), now: Self.now, quota: quota)
            #expect(try await store.syncUsage(userID: AccountID("u2"), collection: "nodes").rows == 1)
        }
    }

    @Test(arguments: backends)
    func aPutPastARecordQuotaIsRefusedAndAShrinkingOneGoesThrough(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            try await Self.makeUsers(store, ["u1"])
            let u1 = AccountID("u1")
            let quota = SyncQuota(rows: 2, bytes: 10)
            func draft(_ id: String, _ box: String, _ base: Int64) -> SealedRecordDraft {
                SealedRecordDraft(id: id, box: Data(box.utf8), baseVersion: base)
            }
            for collection in SealedRecordCollection.allCases {
                let name = collection.rawValue
                #expect(
                    try await store.putSealedRecords(
                        collection, [draft("r1", "aaaa", 0), draft("r2", "bbbb", 0)], userID: u1, quota: quota)
                        == .written([1, 1]))
                #expect(try await store.syncUsage(userID: u1, collection: name) == (2, 8))
                // A third record: past the rows.
                await #expect(throws: ServerStoreError.self) {
                    try await store.putSealedRecords(collection, [draft("r3", "c", 0)], userID: u1, quota: quota)
                }
                // A box 6 bytes bigger beside one 3 bytes smaller: past the bytes (11 of 10), and
                // nothing of the batch is written.
                await #expect(throws: ServerStoreError.self) {
                    try await store.putSealedRecords(
                        collection, [draft("r2", "b", 1), draft("r1", "aaaaaaaaaa", 1)], userID: u1, quota: quota)
                }
                #expect(
                    try await store.sealedRecords(collection, userID: u1, after: 0, limit: 10).map(\.version) == [1, 1])
                // Under a lowered quota, shrinking what is kept still goes through.
                let lowered = SyncQuota(rows: 1, bytes: 2)
                #expect(
                    try await store.putSealedRecords(collection, [draft("r1", "a", 1)], userID: u1, quota: lowered)
                        == .written([2]))
                #expect(try await store.syncUsage(userID: u1, collection: name) == (2, 5))
            }
        }
    }
}
