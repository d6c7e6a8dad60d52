import Foundation
import Logging
import PostgresNIO
public import TandemBasics

/// Sharing tasks on PostgreSQL (issue 50 item 6), as on SQLite: a share or an invitation, and
/// the recipient's answer. The writes that give a task take the sync clock's lock like every
/// other feed write.
extension PostgresServerStore {
    public func shareRedoTask(taskID: String, sharer: AccountID, recipient: AccountID, now: UnixMillis) async throws
        -> TaskShareOutcome
    {
        let logger = logger
        return try await syncTransaction { connection in
            let last = try await Self.lockClock(connection, logger, waitingAtMost: Self.clockLockTimeout)
            let outcome = TaskSharePlan.decide(
                sharer: sharer, recipient: recipient, readers: try await Self.readers(connection, taskID, logger),
                trusted: try await Self.trusts(connection, logger, recipient, sharer))
            switch outcome {
            case .notFound, .alreadyShared: return outcome
            case .added: try await Self.grant(connection, logger, taskID: taskID, to: recipient, now: now, clock: last)
            case .invited:
                try await connection.query(
                    """
                    INSERT INTO task_invitation (recipient_id, task_id, sharer_id, created_at)
                    VALUES (\(recipient.rawValue), \(taskID), \(sharer.rawValue), \(now.rawValue))
                    ON CONFLICT (recipient_id, task_id) DO NOTHING
                    """, logger: logger)
            }
            try await Self.trust(connection, logger, sharer, recipient, now: now)
            return outcome
        }
    }

    public func taskInvitations(recipient: AccountID, limit: Int) async throws -> [StoredTaskInvitation] {
        let rows = try await database.query(
            """
            SELECT i.task_id, i.sharer_id, u.username, i.created_at,
                (SELECT json FROM redo_node WHERE task_id = i.task_id ORDER BY pos LIMIT 1)
            FROM task_invitation i JOIN auth_user u ON u.id = i.sharer_id
            WHERE i.recipient_id = \(recipient.rawValue) ORDER BY i.created_at, i.task_id LIMIT \(Int64(limit))
            """, logger: logger)
        var invitations: [StoredTaskInvitation] = []
        for (task, sharer, username, created, first) in try rows.decode((String, String, String?, Int64, Data?).self) {
            invitations.append(
                StoredTaskInvitation(
                    taskID: task, sharerID: AccountID(sharer), sharerUsername: username,
                    createdAt: UnixMillis(created), firstNode: first.map(Array.init)))
        }
        return invitations
    }

    public func acceptTaskInvitation(taskID: String, recipient: AccountID, now: UnixMillis) async throws
        -> TaskInvitationOutcome
    {
        let logger = logger
        return try await syncTransaction { connection in
            let last = try await Self.lockClock(connection, logger, waitingAtMost: Self.clockLockTimeout)
            guard let (sharer, username) = try await Self.takeInvitation(connection, logger, taskID, recipient) else {
                return .notFound
            }
            let readers = try await Self.readers(connection, taskID, logger)
            guard readers.contains(sharer.rawValue) else { return .notFound }
            try await Self.trust(connection, logger, recipient, sharer, now: now)
            let added = !readers.contains(recipient.rawValue)
            if added { try await Self.grant(connection, logger, taskID: taskID, to: recipient, now: now, clock: last) }
            return .accepted(sharerUsername: username, added: added)
        }
    }

    public func declineTaskInvitation(taskID: String, recipient: AccountID) async throws -> TaskInvitationOutcome {
        let logger = logger
        return try await database.withTransaction(logger: logger) { connection in
            guard let (_, username) = try await Self.takeInvitation(connection, logger, taskID, recipient) else {
                return .notFound
            }
            return .declined(sharerUsername: username)
        }
    }

    /// Removes the invitation, answering its sharer; nil when there is none.
    private static func takeInvitation(
        _ connection: PostgresConnection, _ logger: Logger, _ taskID: String, _ recipient: AccountID
    ) async throws -> (AccountID, String?)? {
        let rows = try await connection.query(
            """
            WITH gone AS (
                DELETE FROM task_invitation WHERE recipient_id = \(recipient.rawValue) AND task_id = \(taskID)
                RETURNING sharer_id)
            SELECT gone.sharer_id, u.username FROM gone LEFT JOIN auth_user u ON u.id = gone.sharer_id
            """, logger: logger)
        for try await (sharer, username) in rows.decode((String, String?).self) { return (AccountID(sharer), username) }
        return nil
    }

    /// Whether `user` takes shares from `sharer` without asking.
    private static func trusts(
        _ connection: PostgresConnection, _ logger: Logger, _ user: AccountID, _ sharer: AccountID
    ) async throws -> Bool {
        let rows = try await connection.query(
            "SELECT 1 FROM share_trust WHERE user_id = \(user.rawValue) AND trusted_id = \(sharer.rawValue)",
            logger: logger)
        for try await _ in rows { return true }
        return false
    }

    private static func trust(
        _ connection: PostgresConnection, _ logger: Logger, _ user: AccountID, _ trusted: AccountID, now: UnixMillis
    ) async throws {
        try await connection.query(
            """
            INSERT INTO share_trust (user_id, trusted_id, created_at)
            VALUES (\(user.rawValue), \(trusted.rawValue), \(now.rawValue))
            ON CONFLICT (user_id, trusted_id) DO NOTHING
            """, logger: logger)
    }

    /// Gives `recipient` the task: its access row and a feed row per stored node of the task,
    /// under the clock's lock (`last`: its value when locked).
    private static func grant(
        _ connection: PostgresConnection, _ logger: Logger, taskID: String, to recipient: AccountID, now: UnixMillis,
        clock last: Int64
    ) async throws {
        var nodes: [(id: String, position: Int64)] = []
        let rows = try await connection.query(
            "SELECT id, pos FROM redo_node WHERE task_id = \(taskID) ORDER BY pos", logger: logger)
        for try await (id, position) in rows.decode((String, Int64).self) { nodes.append((id, position)) }
        let plan = TaskSharePlan.added(recipient: recipient, nodes: nodes, clock: last)
        try await connection.query(
            """
            INSERT INTO redo_task_access (task_id, user_id, granted_at)
            VALUES (\(taskID), \(recipient.rawValue), \(now.rawValue))
            """, logger: logger)
        if !plan.feed.isEmpty {
            try await connection.query(
                """
                INSERT INTO redo_feed (seq, user_id, node_id)
                SELECT seq, \(recipient.rawValue), node_id
                FROM UNNEST(\(plan.feed.map(\.position))::bigint[], \(plan.feed.map(\.nodeID))::text[]) AS feed_row(seq, node_id)
                """, logger: logger)
        }
        try await connection.query("UPDATE sync_clock SET last = \(plan.clock) WHERE id = 1", logger: logger)
    }
}
