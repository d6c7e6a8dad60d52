public import Foundation
import TandemAPI
import TandemBasics
public import TandemServerStore

/// Imports users and their credential accounts exported from a BetterAuth database, so their
/// existing passwords keep working (the scrypt format is the same, betterauth-api.md §7, §12).
///
/// File shape: one JSON object with the rows of BetterAuth's `user` and `account` tables,
/// field names as BetterAuth's JSON (camelCase), dates as ISO-8601 strings:
/// `{"users":[{"id","name","email","emailVerified","image","createdAt","updatedAt","username","displayUsername"}],
///   "accounts":[{"id","accountId","providerId","userId","password","createdAt","updatedAt"}]}`.
/// Only `providerId == "credential"` accounts with a well-formed hash are taken.
public struct BetterAuthExport: Codable, Sendable {
    public struct User: Codable, Sendable {
        public var id: String
        public var name: String
        public var email: String
        public var emailVerified: Bool?
        public var image: String?
        public var createdAt: Date
        public var updatedAt: Date
        public var username: String?
        public var displayUsername: String?
    }

    public struct Account: Codable, Sendable {
        public var id: String
        public var accountId: String
        public var providerId: String
        public var userId: String
        public var password: String?
        public var createdAt: Date
        public var updatedAt: Date
    }

    public var users: [User]
    public var accounts: [Account]

    /// Decodes an export file; the error names what is wrong.
    public static func decode(_ data: Data) throws(BetterAuthImportError) -> BetterAuthExport {
        do { return try APIJSON.decoder().decode(BetterAuthExport.self, from: data) } catch {
            throw .malformedFile(reason: String(describing: error))
        }
    }
}

/// What an import did.
public struct BetterAuthImportReport: Sendable, Codable, Equatable {
    public var imported: [String] = []
    /// User id and why it was not imported.
    public var skipped: [Skipped] = []

    public struct Skipped: Sendable, Codable, Equatable {
        public var userId: String
        public var reason: String
    }
}

/// Why an export file cannot be imported at all.
public enum BetterAuthImportError: Error, Equatable, CustomStringConvertible {
    case malformedFile(reason: String)

    public var description: String {
        switch self {
        case .malformedFile(let reason): "not a BetterAuth export (users + accounts): \(reason)"
        }
    }
}

extension BetterAuthExport {
    /// Writes every importable user with its account and a fresh chat profile; users that
    /// clash, lack a credential account or break the username rules are skipped and reported.
    public func importUsers(into store: any AccountStore) async throws -> BetterAuthImportReport {
        var report = BetterAuthImportReport()
        let credentials = Dictionary(
            accounts.filter { $0.providerId == CredentialAccount.providerID }.map { ($0.userId, $0) },
            uniquingKeysWith: { first, _ in first })
        for row in users {
            guard let account = credentials[row.id], let hash = account.password, PasswordHasher.isWellFormed(hash)
            else {
                report.skipped.append(
                    .init(userId: row.id, reason: "no credential account with a scrypt password hash"))
                continue
            }
            if let username = row.username, UsernameRules.violation(of: username) != nil {
                report.skipped.append(.init(userId: row.id, reason: "username \(username) breaks the username rules"))
                continue
            }
            let user = AuthUser(
                id: row.id, name: row.name, email: row.email.lowercased(), emailVerified: row.emailVerified ?? false,
                image: row.image, createdAt: row.createdAt, updatedAt: row.updatedAt,
                username: row.username.map(UsernameRules.normalize),
                displayUsername: row.displayUsername ?? row.username)
            let credential = CredentialAccount(
                id: account.id, accountId: account.accountId, userID: AccountID(row.id), passwordHash: hash,
                createdAt: UnixMillis(account.createdAt), updatedAt: UnixMillis(account.updatedAt))
            let profile = ChatProfile(
                userId: row.id,
                displayName: row.name.isEmpty ? (row.displayUsername ?? row.username ?? row.id) : row.name,
                kaspaAddress: nil, publicKeys: [], updatedAt: row.updatedAt)
            do {
                try await store.createUser(user, account: credential, profile: profile)
                report.imported.append(row.id)
            } catch let error as ServerStoreError {
                report.skipped.append(.init(userId: row.id, reason: error.description))
            }
        }
        return report
    }
}
