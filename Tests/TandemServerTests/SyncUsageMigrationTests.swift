import Foundation
import GRDB
import TandemBasics
import TestSupport
import Testing

@testable import TandemServer
@testable import TandemServerStore

/// The `v8-sync-usage` migration (issue 50 item 6) counts what accounts already hold: a file
/// whose usage table is gone counts again, on opening, exactly what the writes had counted.
@Suite struct SyncUsageMigrationTests {
    @Test func theMigrationCountsWhatIsStoredAsTheWritesDid() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("tandem.sqlite")
        let u1 = AccountID("u1")
        var counted: [String: [Int64]] = [:]
        do {
            let store = try SQLiteServerStore(fileURL: file)
            try await StoreContractTests.makeUsers(store, ["u1", "u2"])
            _ = try await store.appendRedoNodes(
                [
                    StoreContractTests.node("n1", task: "t1", create: true),
                    StoreContractTests.node("n2", task: "t1", parents: ["n1"]),
                ], userID: u1, now: StoreContractTests.now)
            let records = [
                SealedRecordDraft(id: "r1", box: Data("sealed".utf8), baseVersion: 0),
                SealedRecordDraft(id: "r2", box: Data("more sealed".utf8), baseVersion: 0),
            ]
            _ = try await store.putSealedRecords(.contacts, records, userID: u1)
            _ = try await store.putSealedRecords(.taskPresets, Array(records.prefix(1)), userID: u1)
            for collection in ["nodes", "contacts", "taskPresets"] {
                let usage = try await store.syncUsage(userID: u1, collection: collection)
                counted[collection] = [usage.rows, usage.bytes]
            }
            #expect(counted["nodes"]?.first == 2 && counted["contacts"]?.first == 2)
        }
        let queue = try olderFile(at: file)
        try await queue.write { db in
            try db.execute(sql: "DROP TABLE sync_usage; DELETE FROM grdb_migrations WHERE identifier = 'v8-sync-usage'")
        }
        try queue.close()
        let reopened = try SQLiteServerStore(fileURL: file)
        for collection in ["nodes", "contacts", "taskPresets"] {
            let usage = try await reopened.syncUsage(userID: u1, collection: collection)
            #expect([usage.rows, usage.bytes] == counted[collection], "\(collection)")
        }
        #expect(try await reopened.syncUsage(userID: AccountID("u2"), collection: "nodes") == (0, 0))
    }
}

/// The `v9-share-invitations` migration (issue 50 item 6): accounts that already read a task
/// together go on sharing without invitations; anyone else is asked.
@Suite struct ShareTrustMigrationTests {
    @Test func accountsThatAlreadyShareATaskTrustEachOther() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("tandem.sqlite")
        let (u1, u2, u3) = (AccountID("u1"), AccountID("u2"), AccountID("u3"))
        do {
            let store = try SQLiteServerStore(fileURL: file)
            try await StoreContractTests.makeUsers(store, ["u1", "u2", "u3"])
            for (task, user) in [("t1", u1), ("t2", u2), ("t3", u3)] {
                _ = try await store.appendRedoNodes(
                    [StoreContractTests.node("\(task)n", task: task, create: true)], userID: user,
                    now: StoreContractTests.now)
            }
        }
        // A file from before the migration, where u2 was given u1's task t1.
        let queue = try olderFile(at: file)
        try await queue.write { db in
            try db.execute(
                sql: """
                    DROP TABLE task_invitation; DROP TABLE share_trust;
                    DELETE FROM grdb_migrations WHERE identifier = 'v9-share-invitations';
                    INSERT INTO redo_task_access (task_id, user_id, granted_at) VALUES ('t1', 'u2', 5);
                    """)
        }
        try queue.close()
        let reopened = try SQLiteServerStore(fileURL: file)
        let now = StoreContractTests.now
        #expect(try await reopened.shareRedoTask(taskID: "t2", sharer: u2, recipient: u1, now: now) == .added)
        #expect(try await reopened.shareRedoTask(taskID: "t1", sharer: u1, recipient: u3, now: now) == .invited)
        #expect(try await reopened.shareRedoTask(taskID: "t3", sharer: u3, recipient: u2, now: now) == .invited)
    }
}

/// The store's file, opened to be turned back into an older one. It waits for the lock: the
/// store just closed may still be finishing a checkpoint beside its writer, and without a wait
/// SQLite answers "database is locked" at once.
private func olderFile(at file: URL) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.busyMode = .timeout(10)
    return try DatabaseQueue(path: file.path, configuration: configuration)
}
