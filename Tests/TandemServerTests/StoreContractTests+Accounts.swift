import Foundation
import GRDB
import Logging
import PostgresNIO
import TandemAPI
import TandemBasics
import TestSupport
import Testing

@testable import TandemServer
@testable import TandemServerStore

/// The storage contract for account management (issue 13), on both backends.
extension StoreContractTests {
    static func session(_ id: String, user: String, hash: String, createdAt: Date) -> StoredSession {
        StoredSession(
            id: SessionID(id), tokenHash: SessionTokenHash(hex: hash), userID: AccountID(user),
            expiresAt: UnixMillis(createdAt).advanced(by: .seconds(604_800)), createdAt: UnixMillis(createdAt),
            updatedAt: UnixMillis(createdAt),
            ipAddress: "", userAgent: "agent \(id)", rememberMe: true)
    }

    /// Two users, u1 with sessions s1…s3 (oldest first) and u2 with s4.
    static func seedTwoUsers(_ store: any ServerStore) async throws {
        for (id, name) in [("u1", "anna"), ("u2", "bert")] {
            let record = Self.user(id, username: name, email: "\(name)@example.com", at: Self.time)
            try await store.createUser(record.0, account: record.1, profile: record.2)
        }
        for index in 1...4 {
            try await store.createSession(
                Self.session(
                    "s\(index)", user: index == 4 ? "u2" : "u1", hash: "hash\(index)",
                    createdAt: Self.time.addingTimeInterval(Double(index))))
        }
    }

    @Test(arguments: backends)
    func sessionsOfAUserAreListedOldestFirstAndRevokedAllButOne(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            try await Self.seedTwoUsers(store)
            #expect(try await store.sessions(userID: AccountID("u1")).map(\.id.rawValue) == ["s1", "s2", "s3"])
            #expect(
                try await store.sessions(userID: AccountID("u1")).first
                    == Self.session(
                        "s1", user: "u1", hash: "hash1", createdAt: Self.time.addingTimeInterval(1)))
            // Warm any cache, then revoke: the deleted rows are gone at once.
            _ = try await store.session(tokenHash: SessionTokenHash(hex: "hash1"))
            try await store.deleteSessions(userID: AccountID("u1"), keeping: SessionID("s2"))
            #expect(try await store.session(tokenHash: SessionTokenHash(hex: "hash1")) == nil)
            #expect(try await store.session(tokenHash: SessionTokenHash(hex: "hash3")) == nil)
            #expect(try await store.sessions(userID: AccountID("u1")).map(\.id.rawValue) == ["s2"])
            try await store.deleteSessions(userID: AccountID("u1"), keeping: nil)
            #expect(try await store.session(tokenHash: SessionTokenHash(hex: "hash2")) == nil)
            #expect(try await store.sessions(userID: AccountID("u2")).map(\.id.rawValue) == ["s4"])
        }
    }

    @Test(arguments: backends)
    func usersAndPasswordsUpdateAndUsernamesStayUnique(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            try await Self.seedTwoUsers(store)
            var anna = try #require(try await store.user(id: AccountID("u1")))
            anna.name = "Anna K"
            anna.image = "https://example.com/a.png"
            anna.username = "anna.k"
            anna.displayUsername = "Anna.K"
            anna.updatedAt = Self.time.addingTimeInterval(60)
            try await store.updateUser(anna)
            #expect(try await store.user(id: AccountID("u1")) == anna)
            #expect(try await store.user(username: "anna.k") == anna)
            #expect(try await store.user(username: "anna") == nil)
            var clash = anna
            clash.username = "bert"
            await #expect(throws: ServerStoreError.usernameTaken("bert")) { try await store.updateUser(clash) }
            #expect(try await store.user(id: AccountID("u1")) == anna)

            try await store.updatePassword(
                userID: AccountID("u1"), passwordHash: "aa:bb", updatedAt: Self.millis.advanced(by: .seconds(90)))
            #expect(try await store.credentialAccount(userID: AccountID("u1"))?.passwordHash == "aa:bb")
            #expect(try await store.credentialAccount(userID: AccountID("u2"))?.passwordHash == "00:11")
        }
    }

    @Test(arguments: backends)
    func deleteUserLeavesNoRowOfTheUserInAnyTable(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            try await Self.seedTwoUsers(store)
            _ = try await store.user(id: AccountID("u1"))
            _ = try await store.session(tokenHash: SessionTokenHash(hex: "hash1"))
            #expect(try await Self.cellsHolding(["u1"], in: store).count >= 4)
            try await store.deleteUser(id: AccountID("u1"))
            #expect(try await Self.cellsHolding(["u1", "anna", "anna@example.com", "hash1"], in: store) == [])
            #expect(try await store.user(id: AccountID("u1")) == nil)
            #expect(try await store.session(tokenHash: SessionTokenHash(hex: "hash1")) == nil)
            #expect(try await store.user(id: AccountID("u2")) != nil)
            #expect(try await store.sessions(userID: AccountID("u2")).count == 1)
        }
    }

    /// Every `table.column` of the schema, read from the database itself (sqlite_master,
    /// information_schema), that holds one of `values`: tables added later are searched too.
    static func cellsHolding(_ values: [String], in store: any ServerStore) async throws -> [String] {
        if let sqlite = store as? SQLiteServerStore {
            return try await sqlite.database.asyncRead { db in
                var found: [String] = []
                let tables = try String.fetchAll(
                    db,
                    sql: """
                        SELECT name FROM sqlite_master WHERE type = 'table'
                        AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'
                        """)
                for table in tables {
                    let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\"\(table)\")").map {
                        $0["name"] as String
                    }
                    for column in columns {
                        for value in values {
                            let count = try Int.fetchOne(
                                db, sql: "SELECT COUNT(*) FROM \"\(table)\" WHERE CAST(\"\(column)\" AS TEXT) = ?",
                                arguments: [value])
                            if (count ?? 0) > 0 { found.append("\(table).\(column)=\(value)") }
                        }
                    }
                }
                return found
            }
        }
        let postgres = try #require(store as? PostgresServerStore)
        let logger = Logger(label: "contract")
        var columns: [(String, String)] = []
        let rows = try await postgres.database.query(
            """
            SELECT table_name::text, column_name::text FROM information_schema.columns
            WHERE table_schema = current_schema() ORDER BY table_name, column_name
            """, logger: logger)
        for (table, column) in try rows.decode((String, String).self) { columns.append((table, column)) }
        var found: [String] = []
        for (table, column) in columns {
            for value in values {
                var binds = PostgresBindings()
                binds.append(value)
                let counted = try await postgres.database.query(
                    PostgresQuery(
                        unsafeSQL: "SELECT COUNT(*) FROM \"\(table)\" WHERE \"\(column)\"::text = $1", binds: binds),
                    logger: logger)
                for count in try counted.decode(Int64.self) where count > 0 {
                    found.append("\(table).\(column)=\(value)")
                }
            }
        }
        return found
    }
}
