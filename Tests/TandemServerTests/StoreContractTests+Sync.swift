import Foundation
import TandemAPI
import TandemBasics
import TandemServer
import TandemServerStore
import Testing

/// The sync store methods on both backends (issue 12 items 1–3).
extension StoreContractTests {
    static let now = UnixMillis(1_800_000_000_000)

    static func node(_ id: String, task: String, create: Bool = false, parents: [String] = [], by key: String = "k1")
        -> RedoNodeDraft
    {
        RedoNodeDraft(
            id: id, taskID: task, isCreate: create, parents: parents, authorKey: key,
            json: Array("{\"id\":\"\(id)\"}".utf8))
    }

    static func makeUsers(_ store: any ServerStore, _ ids: [String]) async throws {
        for id in ids {
            let (user, account, profile) = Self.user(id, username: id, email: "\(id)@example.com", at: Self.time)
            try await store.createUser(user, account: account, profile: profile)
        }
    }

    @Test(arguments: backends)
    func deviceKeysBelongToOneAccountAndRevokedKeysStayRevoked(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            try await Self.makeUsers(store, ["u1", "u2"])
            let (u1, u2) = (AccountID("u1"), AccountID("u2"))
            let registered = try await store.registerDeviceKey(publicKey: "k1", userID: u1, now: Self.now)
            let key = StoredDeviceKey(publicKey: "k1", userID: u1, createdAt: Self.now, revokedAt: nil)
            #expect(registered == .registered(key))
            #expect(try await store.registerDeviceKey(publicKey: "k1", userID: u1, now: Self.now) == .existing(key))
            #expect(
                try await store.registerDeviceKey(publicKey: "k1", userID: u2, now: Self.now) == .ownedByAnotherAccount)
            #expect(try await store.revokeDeviceKey(publicKey: "k1", userID: u2, now: Self.now) == nil)
            let later = UnixMillis(Self.now.rawValue + 5)
            let revoked = try await store.revokeDeviceKey(publicKey: "k1", userID: u1, now: later)
            #expect(revoked?.revokedAt == later)
            #expect(try await store.registerDeviceKey(publicKey: "k1", userID: u1, now: later) == .revoked)
            #expect(try await store.deviceKeys(userID: u1).map(\.revokedAt) == [later])
            #expect(try await store.deviceKeys(userID: u2).isEmpty)
        }
    }

    @Test(arguments: backends)
    func nodesAreCheckedAgainstTheStoreAndFeedsFollowAccessAndSharing(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            try await Self.makeUsers(store, ["u1", "u2"])
            let (u1, u2) = (AccountID("u1"), AccountID("u2"))
            let outcomes = try await store.appendRedoNodes(
                [
                    Self.node("a1", task: "A", create: true), Self.node("a2", task: "A", parents: ["a1"]),
                    Self.node("a1", task: "A", create: true), Self.node("x", task: "A", parents: ["missing"]),
                    Self.node("a9", task: "A", create: true), Self.node("b1", task: "B", parents: ["a1"]),
                ], userID: u1, now: Self.now)
            #expect(
                outcomes == [
                    .accepted, .accepted, .duplicate, .rejected(.redo(.parentNotFound)),
                    .rejected(.redo(.duplicateCreate)), .rejected(.redo(.parentNotFound)),
                ])
            // u2 cannot write into u1's task, sees nothing, cannot share it
            #expect(
                try await store.appendRedoNodes(
                    [Self.node("a3", task: "A", parents: ["a2"])], userID: u2, now: Self.now)
                    == [.rejected(.taskForbidden)])
            #expect(try await store.redoNodes(userID: u2, after: 0, limit: 10).isEmpty)
            #expect(try await store.shareRedoTask(taskID: "A", sharer: u2, recipient: u2, now: Self.now) == .notFound)

            // Sharing hands u2 the past nodes in order, after anything it already had
            let mine = try await store.appendRedoNodes(
                [Self.node("c1", task: "C", create: true)], userID: u2, now: Self.now)
            #expect(mine == [.accepted])
            let before = try await store.redoNodes(userID: u2, after: 0, limit: 10)
            // u2 has not accepted u1 before: an invitation, and nothing in u2's feed until accepted
            #expect(try await store.shareRedoTask(taskID: "A", sharer: u1, recipient: u2, now: Self.now) == .invited)
            #expect(try await store.redoNodes(userID: u2, after: before.last?.seq ?? 0, limit: 10).isEmpty)
            #expect(
                try await store.acceptTaskInvitation(taskID: "A", recipient: u2, now: Self.now)
                    == .accepted(sharerUsername: "u1", added: true))
            #expect(
                try await store.shareRedoTask(taskID: "A", sharer: u1, recipient: u2, now: Self.now) == .alreadyShared)
            let after = try await store.redoNodes(userID: u2, after: before.last?.seq ?? 0, limit: 10)
            #expect(after.map { String(decoding: $0.json, as: UTF8.self) } == [#"{"id":"a1"}"#, #"{"id":"a2"}"#])
            #expect(
                try await store.appendRedoNodes(
                    [Self.node("a3", task: "A", parents: ["a2"])], userID: u2, now: Self.now)
                    == [.accepted])
            let u1Feed = try await store.redoNodes(userID: u1, after: 0, limit: 10)
            #expect(u1Feed.count == 3)
            #expect(u1Feed.map(\.seq) == u1Feed.map(\.seq).sorted())
            #expect(try await store.redoNodes(userID: u1, after: u1Feed[0].seq, limit: 1).map(\.seq) == [u1Feed[1].seq])

            // Deleting u1 leaves u2's task A readable to u2 and deletes nothing of it
            try await store.deleteUser(id: u1)
            #expect(try await store.redoNodes(userID: u1, after: 0, limit: 10).isEmpty)
            #expect(try await store.redoNodes(userID: u2, after: 0, limit: 10).count == 4)
            try await store.deleteUser(id: u2)
            #expect(
                try await store.appendRedoNodes(
                    [Self.node("a4", task: "A", parents: ["a3"])], userID: u2, now: Self.now)
                    == [.rejected(.redo(.parentNotFound))])
        }
    }

    @Test(arguments: backends, SealedRecordCollection.allCases)
    func sealedRecordsAreWrittenWithCompareAndSwapAllOrNothing(backend: Backend, collection: SealedRecordCollection)
        async throws
    {
        try await Self.withStore(backend) { store in
            try await Self.makeUsers(store, ["u1", "u2"])
            let (u1, u2) = (AccountID("u1"), AccountID("u2"))
            func draft(_ id: String, _ box: String, _ base: Int64) -> SealedRecordDraft {
                SealedRecordDraft(id: id, box: Data(box.utf8), baseVersion: base)
            }
            #expect(
                try await store.putSealedRecords(collection, [draft("r1", "a", 0), draft("r2", "b", 0)], userID: u1)
                    == .written([1, 1]))
            #expect(
                try await store.putSealedRecords(collection, [draft("r3", "c", 0), draft("r1", "x", 0)], userID: u1)
                    == .conflict(["r1"]))
            #expect(try await store.putSealedRecords(collection, [draft("r1", "a2", 1)], userID: u1) == .written([2]))
            #expect(try await store.putSealedRecords(collection, [draft("r1", "b", 0)], userID: u2) == .written([1]))
            let records = try await store.sealedRecords(collection, userID: u1, after: 0, limit: 10)
            #expect(records.map(\.id) == ["r2", "r1"])
            #expect(records.map(\.version) == [1, 2])
            #expect(records.last?.box == Data("a2".utf8))
            #expect(
                try await store.sealedRecords(collection, userID: u1, after: records[0].seq, limit: 10).map(\.id) == [
                    "r1"
                ])
            // A batch larger than a request's, with one id twice: positions in request order,
            // the last write of an id is the one stored, and a stale one conflicts alone
            let batch = (0..<600).map { draft("b\($0)", "v\($0)", 0) } + [draft("b7", "again", 0)]
            let written = try await store.putSealedRecords(collection, batch, userID: u1)
            #expect(written == .written(Array(repeating: 1, count: 601)))
            let all = try await store.sealedRecords(collection, userID: u1, after: records[1].seq, limit: 1000)
            #expect(all.count == 600)
            #expect(all.map(\.seq) == all.map(\.seq).sorted())
            #expect(all.last.map { [$0.id, String(decoding: $0.box, as: UTF8.self)] } == ["b7", "again"])
            #expect(
                try await store.putSealedRecords(collection, [draft("b1", "x", 1), draft("b2", "y", 0)], userID: u1)
                    == .conflict(["b2"]))
            #expect(try await store.sealedRecords(collection, userID: u1, after: all[599].seq, limit: 10).isEmpty)
            try await store.deleteUser(id: u1)
            #expect(try await store.sealedRecords(collection, userID: u1, after: 0, limit: 10).isEmpty)
            #expect(try await store.sealedRecords(collection, userID: u2, after: 0, limit: 10).count == 1)
        }
    }

    @Test(arguments: backends)
    func eachCollectionKeepsItsOwnRecords(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            try await Self.makeUsers(store, ["u1"])
            let u1 = AccountID("u1")
            let draft = SealedRecordDraft(id: "r1", box: Data("contact".utf8), baseVersion: 0)
            #expect(try await store.putSealedRecords(.contacts, [draft], userID: u1) == .written([1]))
            #expect(try await store.sealedRecords(.taskPresets, userID: u1, after: 0, limit: 10).isEmpty)
            #expect(try await store.sealedRecords(.chatHistory, userID: u1, after: 0, limit: 10).isEmpty)
            // The same id in the other collection is a new record, not a conflict.
            let preset = SealedRecordDraft(id: "r1", box: Data("preset".utf8), baseVersion: 0)
            #expect(try await store.putSealedRecords(.taskPresets, [preset], userID: u1) == .written([1]))
            let presets = try await store.sealedRecords(.taskPresets, userID: u1, after: 0, limit: 10)
            #expect(presets.map(\.box) == [Data("preset".utf8)])
            let contacts = try await store.sealedRecords(.contacts, userID: u1, after: 0, limit: 10)
            #expect(contacts.map(\.box) == [Data("contact".utf8)])
            try await store.deleteUser(id: u1)
            #expect(try await store.sealedRecords(.taskPresets, userID: u1, after: 0, limit: 10).isEmpty)
        }
    }
}
