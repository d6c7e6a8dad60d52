import Foundation
import Logging
import TandemAPI
import TandemBasics
import TandemServer
import TandemServerStore
import TestSupport
import Testing

/// The storage contract: every backend behaves the same. SQLite always; PostgreSQL when
/// `POSTGRES_URL` is set (CI starts a throw-away cluster). Serialized: the PostgreSQL runs share
/// one database, emptied before each test.
@Suite(.serialized) struct StoreContractTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    static var backends: [Backend] {
        ProcessInfo.processInfo.environment["POSTGRES_URL"] == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    /// Runs `body` on a fresh store of `backend`.
    static func withStore(_ backend: Backend, _ body: (any ServerStore) async throws -> Void) async throws {
        switch backend {
        case .sqlite:
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let store = try SQLiteServerStore(fileURL: directory.url.appendingPathComponent("tandem.sqlite"))
            try await store.withServices { try await body(store) }
        case .postgres:
            let url = try #require(ProcessInfo.processInfo.environment["POSTGRES_URL"])
            var logger = Logger(label: "contract")
            logger.logLevel = .error
            let store = try PostgresServerStore(url: url, logger: logger)
            try await store.withServices {
                try await store.migrate()
                try await store.truncateAll()
                try await body(store)
            }
        }
    }

    static func user(_ id: String, username: String, email: String, at time: Date) -> (
        AuthUser, CredentialAccount, ChatProfile
    ) {
        (
            AuthUser(
                id: id, name: "N \(id)", email: email, emailVerified: false, image: nil, createdAt: time,
                updatedAt: time,
                username: username, displayUsername: username.uppercased()),
            CredentialAccount(
                id: "acc-\(id)", accountId: id, userID: AccountID(id), passwordHash: "00:11",
                createdAt: UnixMillis(time), updatedAt: UnixMillis(time)),
            ChatProfile(userId: id, displayName: "N \(id)", kaspaAddress: nil, publicKeys: [], updatedAt: time)
        )
    }

    static let time = Date(timeIntervalSince1970: 1_800_000_000.123)
    /// `time` as the store keeps it.
    static let millis = UnixMillis(time)

    @Test(arguments: backends)
    func usersRoundTripAndAreFoundByIdUsernameAndEmail(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            let (user, account, profile) = Self.user("u1", username: "anna", email: "anna@example.com", at: Self.time)
            try await store.createUser(user, account: account, profile: profile)
            #expect(try await store.user(id: AccountID("u1")) == user)
            #expect(try await store.user(username: "anna") == user)
            #expect(try await store.user(email: "anna@example.com") == user)
            #expect(try await store.user(username: "nobody") == nil)
            #expect(try await store.credentialAccount(userID: AccountID("u1")) == account)
            #expect(try await store.profile(userID: AccountID("u1")) == profile)
        }
    }

    @Test(arguments: backends)
    func usernameAndEmailClashesAreRefusedAndLeaveNothingBehind(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            let first = Self.user("u1", username: "anna", email: "anna@example.com", at: Self.time)
            try await store.createUser(first.0, account: first.1, profile: first.2)
            let sameName = Self.user("u2", username: "anna", email: "other@example.com", at: Self.time)
            await #expect(throws: ServerStoreError.usernameTaken("anna")) {
                try await store.createUser(sameName.0, account: sameName.1, profile: sameName.2)
            }
            let sameEmail = Self.user("u3", username: "other", email: "anna@example.com", at: Self.time)
            await #expect(throws: ServerStoreError.emailTaken("anna@example.com")) {
                try await store.createUser(sameEmail.0, account: sameEmail.1, profile: sameEmail.2)
            }
            #expect(try await store.user(id: AccountID("u2")) == nil)
            #expect(try await store.profile(userID: AccountID("u3")) == nil)
        }
    }

    @Test(arguments: backends)
    func sessionsAreFoundByTokenHashRefreshedAndDeletedOneByOne(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            let (user, account, profile) = Self.user("u1", username: "anna", email: "anna@example.com", at: Self.time)
            try await store.createUser(user, account: account, profile: profile)
            let sessions = (0..<2).map { index in
                StoredSession(
                    id: SessionID("s\(index)"), tokenHash: SessionTokenHash(hex: "hash\(index)"),
                    userID: AccountID("u1"),
                    expiresAt: Self.millis.advanced(by: .seconds(604_800)), createdAt: Self.millis,
                    updatedAt: Self.millis,
                    ipAddress: "", userAgent: nil, rememberMe: index == 0)
            }
            for session in sessions { try await store.createSession(session) }
            #expect(try await store.session(tokenHash: SessionTokenHash(hex: "hash0")) == sessions[0])
            #expect(try await store.session(tokenHash: SessionTokenHash(hex: "hash1")) == sessions[1])
            let later = Self.millis.advanced(by: .seconds(86_400))
            try await store.refreshSession(
                id: SessionID("s0"), expiresAt: later.advanced(by: .seconds(604_800)), updatedAt: later)
            let refreshed = try #require(try await store.session(tokenHash: SessionTokenHash(hex: "hash0")))
            #expect(refreshed.expiresAt == later.advanced(by: .seconds(604_800)))
            #expect(refreshed.updatedAt == later)
            try await store.deleteSession(id: SessionID("s0"))
            try await store.deleteSession(id: SessionID("s0"))
            #expect(try await store.session(tokenHash: SessionTokenHash(hex: "hash0")) == nil)
            #expect(try await store.session(tokenHash: SessionTokenHash(hex: "hash1")) != nil)
        }
    }

    @Test(arguments: backends)
    func profilesUpdateOnlyTheirOwnRow(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            for (id, name) in [("u1", "anna"), ("u2", "bert")] {
                let record = Self.user(id, username: name, email: "\(name)@example.com", at: Self.time)
                try await store.createUser(record.0, account: record.1, profile: record.2)
            }
            var changed = try #require(try await store.profile(userID: AccountID("u1")))
            changed.displayName = "Anna K"
            changed.publicKeys = [String(repeating: "a", count: 64)]
            changed.kaspaAddress = "kaspa:qexample"
            try await store.updateProfile(changed)
            #expect(try await store.profile(userID: AccountID("u1")) == changed)
            #expect(try await store.profile(userID: AccountID("u2"))?.displayName == "N u2")
            var ghost = changed
            ghost.userId = "ghost"
            await #expect(throws: ServerStoreError.profileMissing(userID: "ghost")) {
                try await store.updateProfile(ghost)
            }
        }
    }
}
