import Foundation
import GRDB
import TandemAPI
import TandemBasics
import TandemTesting
import TestSupport
import Testing

@testable import TandemServer
@testable import TandemServerStore

/// SQLite's Redo rows under integer keys (issue 49 item 6, migration `v12-redo-integer-keys`): a
/// node's position is its rowid and the feed is one B-tree keyed by account and position that
/// names its node by position. A file written before the migration serves every feed the same
/// way after it, and goes on taking pushes.
@Suite struct RedoIntegerKeysMigrationTests {
    static func json(_ id: String) -> [UInt8] { Array("{\"id\":\"\(id)\"}".utf8) }

    /// A file at `v11-kasia-compact-keys` holding two accounts' nodes and feeds, one feed row
    /// naming a node that is gone.
    static func writeBeforeTheMigration(_ file: URL) async throws {
        let queue = try DatabaseQueue(path: file.path)
        try SQLiteServerStore.migrator.migrate(queue, upTo: "v11-kasia-compact-keys")
        try await queue.write { db in
            for user in ["u1", "u2"] {
                try db.execute(
                    sql: "INSERT INTO auth_user (id, name, email, created_at, updated_at) VALUES (?, ?, ?, 1, 1)",
                    arguments: [user, user, "\(user)@example.com"])
            }
            for (task, user) in [("A", "u1"), ("A", "u2"), ("B", "u1")] {
                try db.execute(
                    sql: "INSERT INTO redo_task_access (task_id, user_id, granted_at) VALUES (?, ?, 1)",
                    arguments: [task, user])
            }
            for (id, task, position) in [("a1", "A", 1), ("a2", "A", 4), ("b1", "B", 7)] {
                try db.execute(
                    sql: """
                        INSERT INTO redo_node (id, task_id, pos, json, author_key, pushed_by, received_at)
                        VALUES (?, ?, ?, ?, 'k1', 'u1', 1)
                        """,
                    arguments: [id, task, position, Data(Self.json(id))])
            }
            let feed: [(Int, String, String)] = [
                (2, "u1", "a1"), (3, "u2", "a1"), (5, "u1", "a2"), (6, "u2", "a2"), (8, "u1", "b1"), (9, "u2", "gone"),
            ]
            for (seq, user, node) in feed {
                try db.execute(
                    sql: "INSERT INTO redo_feed (seq, user_id, node_id) VALUES (?, ?, ?)", arguments: [seq, user, node])
            }
            try db.execute(sql: "UPDATE sync_clock SET last = 9")
        }
    }

    @Test func feedsWrittenBeforeTheMigrationAreServedTheSameAndPushesGoOn() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("tandem.sqlite")
        try await Self.writeBeforeTheMigration(file)
        let store = try SQLiteServerStore(fileURL: file)
        let (u1, u2) = (AccountID("u1"), AccountID("u2"))
        #expect(
            try await store.redoNodes(userID: u1, after: 0, limit: 99) == [
                StoredRedoNode(seq: 2, json: Self.json("a1")), StoredRedoNode(seq: 5, json: Self.json("a2")),
                StoredRedoNode(seq: 8, json: Self.json("b1")),
            ])
        // The row naming a node that is gone was never served, and is dropped.
        #expect(
            try await store.redoNodes(userID: u2, after: 2, limit: 99) == [
                StoredRedoNode(seq: 3, json: Self.json("a1")), StoredRedoNode(seq: 6, json: Self.json("a2")),
            ])
        let drafts = [
            RedoNodeDraft(
                id: "a1", taskID: "A", isCreate: true, parents: [], authorKey: "k1", json: Self.json("a1")),
            RedoNodeDraft(
                id: "a3", taskID: "A", isCreate: false, parents: ["a2"], authorKey: "k1", json: Self.json("a3")),
            RedoNodeDraft(
                id: "b2", taskID: "B", isCreate: false, parents: ["a2"], authorKey: "k1", json: Self.json("b2")),
        ]
        let outcomes = try await store.appendRedoNodes(
            drafts, userID: u1, now: UnixMillis(2), quota: .unlimited)
        #expect(outcomes == [.duplicate, .accepted, .rejected(.redo(.parentNotFound))])
        // a3 takes node position 10, then a feed position per reader in id order.
        #expect(
            try await store.redoNodes(userID: u1, after: 8, limit: 99) == [
                StoredRedoNode(seq: 11, json: Self.json("a3"))
            ])
        #expect(
            try await store.redoNodes(userID: u2, after: 6, limit: 99) == [
                StoredRedoNode(seq: 12, json: Self.json("a3"))
            ])
        #expect(try await store.redoNodes(userID: u2, after: 0, limit: 2).map(\.seq) == [3, 6])
    }

    @Test func aPullReadsEachNodeByItsRowidFromOneFeedTree() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("tandem.sqlite")
        try await Self.writeBeforeTheMigration(file)
        _ = try SQLiteServerStore(fileURL: file)
        let queue = try DatabaseQueue(path: file.path)
        try await queue.read { db in
            let plan = try Row.fetchAll(
                db,
                sql: """
                    EXPLAIN QUERY PLAN SELECT f.seq, n.json FROM redo_feed f JOIN redo_node n ON n.pos = f.node_pos
                    WHERE f.user_id = ? AND f.seq > ? ORDER BY f.seq LIMIT ?
                    """, arguments: ["u1", 0, 10]
            ).map { $0["detail"] as String }
            #expect(plan.contains { $0.hasPrefix("SEARCH f USING PRIMARY KEY (user_id=? AND seq>?)") })
            #expect(plan.contains { $0.hasPrefix("SEARCH n USING INTEGER PRIMARY KEY (rowid=?)") })
            #expect(!plan.contains { $0.contains("TEMP B-TREE") })
            // The node table's indexes: its id and its task, no separate one for the position.
            let indexes = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list('redo_node') ORDER BY name")
            #expect(indexes == ["redo_node_task", "sqlite_autoindex_redo_node_1"])
            #expect(
                try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list('redo_feed')") == [
                    "sqlite_autoindex_redo_feed_1"
                ])
        }
    }
}
