import Foundation
import PostgresNIO
import TandemAPI
import TandemBasics

/// get-session's read on PostgreSQL: the session with its user's row (NULL columns when the user
/// is gone), prepared once per connection under a name of its own.
struct SessionWithUserStatement: PostgresPreparedStatement {
    static let name = "tandem_session_with_user_v1"
    static let sql = SessionWithUser.selectSQL(placeholder: "$1")

    typealias Row = SessionWithUser

    let tokenHash: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(tokenHash)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> SessionWithUser {
        let columns = try row.decode(
            (
                String, String, String, Int64, Int64, Int64, String?, String?, Bool,
                String?, String?, String?, Bool?, String?, Int64?, Int64?, String?, String?
            ).self)
        let session = StoredSession(
            id: SessionID(columns.0), tokenHash: SessionTokenHash(hex: columns.1), userID: AccountID(columns.2),
            expiresAt: UnixMillis(columns.3), createdAt: UnixMillis(columns.4), updatedAt: UnixMillis(columns.5),
            ipAddress: columns.6, userAgent: columns.7, rememberMe: columns.8)
        guard let id = columns.9, let name = columns.10, let email = columns.11, let verified = columns.12,
            let created = columns.14, let updated = columns.15
        else { return SessionWithUser(session: session, user: nil) }
        let user = AuthUser(
            id: id, name: name, email: email, emailVerified: verified, image: columns.13,
            createdAt: Date(storeMillis: created), updatedAt: Date(storeMillis: updated), username: columns.16,
            displayUsername: columns.17)
        return SessionWithUser(session: session, user: user)
    }
}
