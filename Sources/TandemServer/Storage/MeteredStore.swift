import Foundation
import TandemAPI
import TandemBasics

/// A store that counts its operations in flight for `/metrics` ("database pool use", issue
/// 13 item 6): how many requests are inside the database at this moment, whatever the backend.
struct MeteredStore: ServerStore {
    let base: any ServerStore
    let metrics: ServerMetrics

    func counted<T>(_ operation: () async throws -> T) async throws -> T {
        metrics.databaseInFlight.add(1, ordering: .relaxed)
        defer { metrics.databaseInFlight.subtract(1, ordering: .relaxed) }
        return try await operation()
    }

    func ping() async throws { try await counted { try await base.ping() } }
    func createUser(_ user: AuthUser, account: CredentialAccount, profile: ChatProfile) async throws {
        try await counted { try await base.createUser(user, account: account, profile: profile) }
    }
    func user(id: AccountID) async throws -> AuthUser? { try await counted { try await base.user(id: id) } }
    func user(username: String) async throws -> AuthUser? {
        try await counted { try await base.user(username: username) }
    }
    func user(email: String) async throws -> AuthUser? { try await counted { try await base.user(email: email) } }
    func credentialAccount(userID: AccountID) async throws -> CredentialAccount? {
        try await counted { try await base.credentialAccount(userID: userID) }
    }
    func createSession(_ session: StoredSession) async throws {
        try await counted { try await base.createSession(session) }
    }
    func session(tokenHash: SessionTokenHash) async throws -> StoredSession? {
        try await counted { try await base.session(tokenHash: tokenHash) }
    }
    func refreshSession(id: SessionID, expiresAt: Date, updatedAt: Date) async throws {
        try await counted { try await base.refreshSession(id: id, expiresAt: expiresAt, updatedAt: updatedAt) }
    }
    func deleteSession(id: SessionID) async throws { try await counted { try await base.deleteSession(id: id) } }
    func profile(userID: AccountID) async throws -> ChatProfile? {
        try await counted { try await base.profile(userID: userID) }
    }
    func updateProfile(_ profile: ChatProfile) async throws {
        try await counted { try await base.updateProfile(profile) }
    }
    func sessions(userID: AccountID) async throws -> [StoredSession] {
        try await counted { try await base.sessions(userID: userID) }
    }
    func deleteSessions(userID: AccountID, keeping: SessionID?) async throws {
        try await counted { try await base.deleteSessions(userID: userID, keeping: keeping) }
    }
    func updateUser(_ user: AuthUser) async throws { try await counted { try await base.updateUser(user) } }
    func updatePassword(userID: AccountID, passwordHash: String, updatedAt: Date) async throws {
        try await counted {
            try await base.updatePassword(userID: userID, passwordHash: passwordHash, updatedAt: updatedAt)
        }
    }
    func deleteUser(id: AccountID) async throws { try await counted { try await base.deleteUser(id: id) } }
    func appendKasiaRecord(_ draft: KasiaRecordDraft, now: UnixMillis) async throws -> KasiaAppendOutcome {
        try await counted { try await base.appendKasiaRecord(draft, now: now) }
    }
    func kasiaRecord(txID: String) async throws -> KasiaRecord? {
        try await counted { try await base.kasiaRecord(txID: txID) }
    }
    func kasiaRecords(_ query: KasiaIndexQuery, from blockTime: UnixMillis, limit: Int) async throws -> [KasiaRecord] {
        try await counted { try await base.kasiaRecords(query, from: blockTime, limit: limit) }
    }
    func kasiaRecords(after position: Int64, watching watch: KasiaWatch?, limit: Int) async throws
        -> [KasiaRecord]
    {
        try await counted { try await base.kasiaRecords(after: position, watching: watch, limit: limit) }
    }
    func latestKasiaPosition() async throws -> Int64? {
        try await counted { try await base.latestKasiaPosition() }
    }
    func kasiaChainCursor() async throws -> KasiaChainCursor? {
        try await counted { try await base.kasiaChainCursor() }
    }
    func applyKasiaChainPage(_ page: KasiaChainPage, now: UnixMillis) async throws -> KasiaChainApplied {
        try await counted { try await base.applyKasiaChainPage(page, now: now) }
    }
    /// Long-lived by design: not counted.
    func asKasiaIngester(retry: Duration, _ body: @escaping @Sendable () async throws -> Void) async throws {
        try await base.asKasiaIngester(retry: retry, body)
    }
    func kasiaCounts() async throws -> KasiaCounts { try await counted { try await base.kasiaCounts() } }
    /// Long-lived: not counted as an operation in flight.
    func listenForKasiaCommits(_ onCommit: @escaping @Sendable () async -> Void) async throws {
        try await base.listenForKasiaCommits(onCommit)
    }
}
