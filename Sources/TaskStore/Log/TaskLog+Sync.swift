import CanonicalJSON
import Foundation
import GRDB
public import RedoProtocol

/// What sync needs from the log (issue 12 item 4, spec §11.3): the nodes the server lacks, and
/// received nodes stored with their mark in one transaction, so an interrupted sync resumes
/// without pushing or fetching anything twice. Marks never change replay: the log stays the
/// truth and offline edits never wait for them.
extension TaskLog {
    /// Stored nodes without a server mark, in append order (parents before children), as
    /// `(id, canonical JSON text)`; at most `limit`.
    public func unsyncedTexts(limit: Int = .max) throws -> [(id: String, json: [UInt8])] {
        try writer.read { db in
            // Usually every node is marked (a sync with nothing to push, or right after a pull):
            // the covering index of `id` answers that without reading every node's text, which
            // the full query below would page in (issue 12 "Figures": the no-op sync and the
            // end of a new device's pull).
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (\(Self.unmarked))") == true else { return [] }
            let rows = try Row.fetchCursor(
                db,
                sql: "SELECT id, json FROM node WHERE id NOT IN (SELECT id FROM remote) ORDER BY seq LIMIT ?",
                arguments: [limit])
            var texts: [(id: String, json: [UInt8])] = []
            while let row = try rows.next() {
                let json: Data = row[1]
                texts.append((row[0], Array(json)))
            }
            return texts
        }
    }

    /// How many stored nodes have no server mark.
    public func unsyncedCount() throws -> Int {
        try writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM node WHERE id NOT IN (SELECT id FROM remote)") ?? 0
        }
    }

    /// The unmarked nodes' ids, read from the `id` index alone.
    static let unmarked = "SELECT id FROM node WHERE id NOT IN (SELECT id FROM remote)"

    /// Marks nodes as held by the server.
    public func markRemote(_ ids: [String]) throws {
        try writer.write { db in
            let statement = try db.cachedStatement(sql: "INSERT OR IGNORE INTO remote (id) VALUES (?)")
            for id in ids { try statement.execute(arguments: [id]) }
        }
    }

    /// Stores nodes received from the server and marks them, in one transaction. The caller has
    /// validated them with their signatures (`TaskSync`), so they are stored as verified and the
    /// projection is updated for the tasks they touch, as a local append does (issue 12 item 6).
    /// The entries carry their canonical text, made on the cores that validated them.
    public func appendReceived(_ entries: [LogEntry]) throws {
        try appendReturningTasks(entries) { db in
            let mark = try db.cachedStatement(sql: "INSERT OR IGNORE INTO remote (id) VALUES (?)")
            for entry in entries { try mark.execute(arguments: [entry.node.id.description]) }
        }
    }

    /// Forgets every mark: the profile now syncs with another server or account, which holds
    /// none of these nodes yet.
    public func clearRemoteMarks() throws {
        try writer.write { db in try db.execute(sql: "DELETE FROM remote") }
    }
}
