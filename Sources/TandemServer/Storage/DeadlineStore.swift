public import Foundation
public import TandemAPI
public import TandemBasics

/// A store whose every call either answers within `timeout` or fails with
/// `ServerStoreError.unavailable` (issue 14 audit: with PostgreSQL unreachable a sign-in hung
/// 67 s and then answered 500). The operation runs in its own task and a timer races it; the
/// caller gets whichever finishes first, and the loser is cancelled. A slow operation that
/// ignores cancellation keeps running in the background, but no request waits for it.
/// Errors that `isUnavailable` recognises (a refused connection, a closed pool) become
/// `.unavailable` too, so the HTTP layer answers 503 `DATABASE_UNAVAILABLE` instead of 500.
public struct DeadlineStore: ServerStore {
    let base: any ServerStore
    let timeout: Duration
    /// The clock the deadline runs on (a `ManualClock` in tests).
    let clock: any WallClock
    let isUnavailable: @Sendable (any Error) -> Bool

    public init(
        _ base: any ServerStore, timeout: Duration, clock: any WallClock = SystemClock(),
        isUnavailable: @escaping @Sendable (any Error) -> Bool
    ) {
        self.base = base
        self.timeout = timeout
        self.clock = clock
        self.isUnavailable = isUnavailable
    }

    func bounded<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let race = DeadlineRace<T>()
        let (timeout, clock) = (timeout, clock)
        let isUnavailable = isUnavailable
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(continuation)
                let work = Task {
                    do {
                        race.finish(.success(try await operation()))
                    } catch {
                        race.finish(.failure(isUnavailable(error) ? ServerStoreError.unavailable("\(error)") : error))
                    }
                }
                let timer = Task {
                    try? await clock.sleep(until: clock.now.advanced(by: timeout), tolerance: nil)
                    race.finish(.failure(ServerStoreError.unavailable("no answer within \(timeout)")))
                }
                race.onFinish {
                    work.cancel()
                    timer.cancel()
                }
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }

    public func ping() async throws { try await bounded { try await base.ping() } }

    public func createUser(_ user: AuthUser, account: CredentialAccount, profile: ChatProfile) async throws {
        try await bounded { try await base.createUser(user, account: account, profile: profile) }
    }
    public func user(id: AccountID) async throws -> AuthUser? { try await bounded { try await base.user(id: id) } }
    public func user(username: String) async throws -> AuthUser? {
        try await bounded { try await base.user(username: username) }
    }
    public func user(email: String) async throws -> AuthUser? {
        try await bounded { try await base.user(email: email) }
    }
    public func credentialAccount(userID: AccountID) async throws -> CredentialAccount? {
        try await bounded { try await base.credentialAccount(userID: userID) }
    }
    public func createSession(_ session: StoredSession) async throws {
        try await bounded { try await base.createSession(session) }
    }
    public func session(tokenHash: SessionTokenHash) async throws -> StoredSession? {
        try await bounded { try await base.session(tokenHash: tokenHash) }
    }
    public func refreshSession(id: SessionID, expiresAt: Date, updatedAt: Date) async throws {
        try await bounded { try await base.refreshSession(id: id, expiresAt: expiresAt, updatedAt: updatedAt) }
    }
    public func deleteSession(id: SessionID) async throws { try await bounded { try await base.deleteSession(id: id) } }
    public func profile(userID: AccountID) async throws -> ChatProfile? {
        try await bounded { try await base.profile(userID: userID) }
    }
    public func updateProfile(_ profile: ChatProfile) async throws {
        try await bounded { try await base.updateProfile(profile) }
    }

    public func sessions(userID: AccountID) async throws -> [StoredSession] {
        try await bounded { try await base.sessions(userID: userID) }
    }
    public func deleteSessions(userID: AccountID, keeping: SessionID?) async throws {
        try await bounded { try await base.deleteSessions(userID: userID, keeping: keeping) }
    }
    public func updateUser(_ user: AuthUser) async throws { try await bounded { try await base.updateUser(user) } }
    public func updatePassword(userID: AccountID, passwordHash: String, updatedAt: Date) async throws {
        try await bounded {
            try await base.updatePassword(userID: userID, passwordHash: passwordHash, updatedAt: updatedAt)
        }
    }
    public func deleteUser(id: AccountID) async throws { try await bounded { try await base.deleteUser(id: id) } }

    public func appendKasiaRecord(_ draft: KasiaRecordDraft, now: UnixMillis) async throws -> KasiaAppendOutcome {
        try await bounded { try await base.appendKasiaRecord(draft, now: now) }
    }
    public func kasiaRecord(txID: String) async throws -> KasiaRecord? {
        try await bounded { try await base.kasiaRecord(txID: txID) }
    }
    public func kasiaRecords(_ query: KasiaIndexQuery, from blockTime: UnixMillis, limit: Int) async throws
        -> [KasiaRecord]
    {
        try await bounded { try await base.kasiaRecords(query, from: blockTime, limit: limit) }
    }
    public func kasiaRecords(after position: Int64, watching watch: KasiaWatch?, limit: Int) async throws
        -> [KasiaRecord]
    {
        try await bounded { try await base.kasiaRecords(after: position, watching: watch, limit: limit) }
    }
    public func latestKasiaPosition() async throws -> Int64? {
        try await bounded { try await base.latestKasiaPosition() }
    }
    public func kasiaChainCursor() async throws -> KasiaChainCursor? {
        try await bounded { try await base.kasiaChainCursor() }
    }
    public func applyKasiaChainPage(_ page: KasiaChainPage, now: UnixMillis) async throws -> KasiaChainApplied {
        try await bounded { try await base.applyKasiaChainPage(page, now: now) }
    }
    /// Long-lived by design: not bounded.
    public func asKasiaIngester(retry: Duration, _ body: @escaping @Sendable () async throws -> Void) async throws {
        try await base.asKasiaIngester(retry: retry, body)
    }
    public func kasiaCounts() async throws -> KasiaCounts { try await bounded { try await base.kasiaCounts() } }
    /// Long-lived by design: not bounded.
    public func listenForKasiaCommits(_ onCommit: @escaping @Sendable () async -> Void) async throws {
        try await base.listenForKasiaCommits(onCommit)
    }
}
