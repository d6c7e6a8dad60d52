import Foundation
import GRDB
import TandemAPI
import TandemBasics

extension SQLiteServerStore {
    /// The session and its user from the row cache when it holds the session; otherwise both rows
    /// in one statement (a join on the session's token hash), which fills the cache with both.
    public func sessionWithUser(tokenHash: SessionTokenHash) async throws -> SessionWithUser? {
        if let session = cache.session(tokenHash: tokenHash) {
            return SessionWithUser(session: session, user: try await user(id: session.userID))
        }
        let ticket = cache.fillTicket()
        let found = try database.readStatement { db in
            try Row.fetchOne(db.cachedStatement(sql: Self.sessionWithUserSQL), arguments: [tokenHash.hex])
                .map(Self.sessionWithUser(from:))
        }
        guard let found else { return nil }
        cache.fill(found.session, ifUnchangedSince: ticket)
        if let user = found.user { cache.fill(user, ifUnchangedSince: ticket) }
        return found
    }

    /// Columns by position: the session's nine, then the user's nine (NULL when it is gone).
    private static let sessionWithUserSQL = SessionWithUser.selectSQL(placeholder: "?")

    private static func sessionWithUser(from row: Row) -> SessionWithUser {
        let session = StoredSession(
            id: SessionID(row[0]), tokenHash: SessionTokenHash(hex: row[1]), userID: AccountID(row[2]),
            expiresAt: UnixMillis(row[3] as Int64), createdAt: UnixMillis(row[4] as Int64),
            updatedAt: UnixMillis(row[5] as Int64), ipAddress: row[6], userAgent: row[7], rememberMe: row[8])
        let userID: String? = row[9]
        let user = userID.map { id in
            AuthUser(
                id: id, name: row[10], email: row[11], emailVerified: row[12], image: row[13],
                createdAt: Date(storeMillis: row[14]), updatedAt: Date(storeMillis: row[15]), username: row[16],
                displayUsername: row[17])
        }
        return SessionWithUser(session: session, user: user)
    }
}
