import Foundation
import GRDB
public import TandemBasics

/// Sharing tasks on SQLite: a share, or an invitation where the recipient has not accepted the
/// sharer before (issue 50 item 6), and the recipient's answer to it.
extension SQLiteServerStore {
    public func shareRedoTask(taskID: String, sharer: AccountID, recipient: AccountID, now: UnixMillis) async throws
        -> TaskShareOutcome
    {
        try await database.write { db in
            let outcome = TaskSharePlan.decide(
                sharer: sharer, recipient: recipient, readers: try Self.readers(db, taskID: taskID),
                trusted: try Self.trusts(db, recipient, sharer))
            switch outcome {
            case .notFound, .alreadyShared: return outcome
            case .added: try Self.grant(db, taskID: taskID, to: recipient, now: now)
            case .invited:
                try db.execute(
                    sql: """
                        INSERT INTO task_invitation (recipient_id, task_id, sharer_id, created_at) VALUES (?, ?, ?, ?)
                        ON CONFLICT (recipient_id, task_id) DO NOTHING
                        """, arguments: [recipient.rawValue, taskID, sharer.rawValue, now.rawValue])
            }
            try Self.trust(db, sharer, recipient, now: now)
            return outcome
        }
    }

    public func taskInvitations(recipient: AccountID, limit: Int) async throws -> [StoredTaskInvitation] {
        try readNow { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT i.task_id, i.sharer_id, u.username, i.created_at,
                        (SELECT json FROM redo_node WHERE task_id = i.task_id ORDER BY pos LIMIT 1)
                    FROM task_invitation i JOIN auth_user u ON u.id = i.sharer_id
                    WHERE i.recipient_id = ? ORDER BY i.created_at, i.task_id LIMIT ?
                    """, arguments: [recipient.rawValue, limit])
            var invitations: [StoredTaskInvitation] = []
            while let row = try rows.next() {
                let first: Data? = row[4]
                invitations.append(
                    StoredTaskInvitation(
                        taskID: row[0], sharerID: AccountID(row[1] as String), sharerUsername: row[2],
                        createdAt: UnixMillis(row[3] as Int64), firstNode: first.map(Array.init)))
            }
            return invitations
        }
    }

    public func acceptTaskInvitation(taskID: String, recipient: AccountID, now: UnixMillis) async throws
        -> TaskInvitationOutcome
    {
        try await database.write { db in
            guard let (sharer, username) = try Self.takeInvitation(db, taskID: taskID, recipient: recipient) else {
                return .notFound
            }
            let readers = try Self.readers(db, taskID: taskID)
            guard readers.contains(sharer.rawValue) else { return .notFound }
            try Self.trust(db, recipient, sharer, now: now)
            let added = !readers.contains(recipient.rawValue)
            if added { try Self.grant(db, taskID: taskID, to: recipient, now: now) }
            return .accepted(sharerUsername: username, added: added)
        }
    }

    public func declineTaskInvitation(taskID: String, recipient: AccountID) async throws -> TaskInvitationOutcome {
        try await database.write { db in
            guard let (_, username) = try Self.takeInvitation(db, taskID: taskID, recipient: recipient) else {
                return .notFound
            }
            return .declined(sharerUsername: username)
        }
    }

    /// Removes the invitation, answering its sharer; nil when there is none.
    private static func takeInvitation(_ db: Database, taskID: String, recipient: AccountID) throws
        -> (AccountID, String?)?
    {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT i.sharer_id, u.username FROM task_invitation i JOIN auth_user u ON u.id = i.sharer_id
                    WHERE i.recipient_id = ? AND i.task_id = ?
                    """, arguments: [recipient.rawValue, taskID])
        else { return nil }
        try db.execute(
            sql: "DELETE FROM task_invitation WHERE recipient_id = ? AND task_id = ?",
            arguments: [recipient.rawValue, taskID])
        return (AccountID(row[0] as String), row[1])
    }

    /// Whether `user` takes shares from `sharer` without asking.
    private static func trusts(_ db: Database, _ user: AccountID, _ sharer: AccountID) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT 1 FROM share_trust WHERE user_id = ? AND trusted_id = ?"),
            arguments: [user.rawValue, sharer.rawValue]) ?? false
    }

    private static func trust(_ db: Database, _ user: AccountID, _ trusted: AccountID, now: UnixMillis) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO share_trust (user_id, trusted_id, created_at) VALUES (?, ?, ?)
                ON CONFLICT (user_id, trusted_id) DO NOTHING
                """
        ).execute(arguments: [user.rawValue, trusted.rawValue, now.rawValue])
    }

    /// Gives `recipient` the task: its access row and a feed row per stored node of the task.
    private static func grant(_ db: Database, taskID: String, to recipient: AccountID, now: UnixMillis) throws {
        var clock = try SyncClock(db)
        let nodes = try Row.fetchAll(
            db, sql: "SELECT id, pos FROM redo_node WHERE task_id = ? ORDER BY pos", arguments: [taskID]
        ).map { (id: $0[0] as String, position: $0[1] as Int64) }
        let plan = TaskSharePlan.added(recipient: recipient, nodes: nodes, clock: clock.last)
        try db.execute(
            sql: "INSERT INTO redo_task_access (task_id, user_id, granted_at) VALUES (?, ?, ?)",
            arguments: [taskID, recipient.rawValue, now.rawValue])
        let insertFeed = try db.cachedStatement(sql: SQLiteServerStore.insertFeedSQL)
        for row in plan.feed { try insertFeed.execute(arguments: [row.userID, row.position, row.nodePosition]) }
        clock.last = plan.clock
        try clock.save(db)
    }
}
