import Foundation
import TandemAPI
import TandemBasics
import TestSupport
import Testing

@testable import TandemServer
@testable import TandemServerStore

/// The storage contract for a session read with its user (issue 49 item 6: get-session's full
/// path in one read), on both backends: the same rows as the two reads it replaces, never a
/// row that a later write changed or removed.
extension StoreContractTests {
    @Test(arguments: backends)
    func aSessionIsReadWithItsUserAsTheSeparateReadsGiveThem(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            try await Self.seedTwoUsers(store)
            for (hash, user) in [("hash1", "u1"), ("hash4", "u2"), ("hash1", "u1")] {
                let found = try #require(try await store.sessionWithUser(tokenHash: SessionTokenHash(hex: hash)))
                let session = try #require(try await store.session(tokenHash: SessionTokenHash(hex: hash)))
                #expect(found.session == session)
                #expect(found.user == (try await store.user(id: AccountID(user))))
                #expect(found.user?.id == user)
            }
            #expect(try await store.sessionWithUser(tokenHash: SessionTokenHash(hex: "hash9")) == nil)
        }
    }

    @Test(arguments: backends)
    func aSessionReadWithItsUserFollowsEveryLaterWrite(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            try await Self.seedTwoUsers(store)
            let hash1 = SessionTokenHash(hex: "hash1")
            // Read once first, so a backend that remembers rows has them.
            let before = try #require(try await store.sessionWithUser(tokenHash: hash1))

            var renamed = try #require(before.user)
            renamed.name = "Anna Renamed"
            renamed.updatedAt = Self.time.addingTimeInterval(60)
            try await store.updateUser(renamed)
            #expect(try await store.sessionWithUser(tokenHash: hash1)?.user?.name == "Anna Renamed")

            let later = Self.millis.advanced(by: .seconds(86_400))
            try await store.refreshSession(
                id: SessionID("s1"), expiresAt: later.advanced(by: .seconds(604_800)), updatedAt: later)
            let refreshed = try #require(try await store.sessionWithUser(tokenHash: hash1))
            #expect(refreshed.session.expiresAt == later.advanced(by: .seconds(604_800)))
            #expect(refreshed.session.updatedAt == later)

            try await store.deleteSession(id: SessionID("s1"))
            #expect(try await store.sessionWithUser(tokenHash: hash1) == nil)

            _ = try await store.sessionWithUser(tokenHash: SessionTokenHash(hex: "hash4"))
            try await store.deleteUser(id: AccountID("u2"))
            #expect(try await store.sessionWithUser(tokenHash: SessionTokenHash(hex: "hash4")) == nil)
            #expect(try await store.sessionWithUser(tokenHash: SessionTokenHash(hex: "hash2"))?.user?.id == "u1")
        }
    }

    /// The store that wrote the rows has them cached; a second store on the same file reads them
    /// through the joined statement, and every column lands where it was written (every value
    /// distinct, so two columns read in each other's place show).
    @Test func aColdSQLiteStoreReadsEachJoinedColumnIntoItsField() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("tandem.sqlite")
        let writer = try SQLiteServerStore(fileURL: file)
        let (base, account, profile) = Self.user("u7", username: "carla", email: "carla@example.com", at: Self.time)
        var user = base
        user.emailVerified = true
        user.image = "https://example.com/carla.png"
        user.updatedAt = Self.millis.advanced(by: .seconds(30)).date
        user.displayUsername = "Carla C."
        try await writer.createUser(user, account: account, profile: profile)
        let session = StoredSession(
            id: SessionID("s7"), tokenHash: SessionTokenHash(hex: "hash7"), userID: AccountID("u7"),
            expiresAt: Self.millis.advanced(by: .seconds(604_800)), createdAt: Self.millis.advanced(by: .seconds(5)),
            updatedAt: Self.millis.advanced(by: .seconds(9)), ipAddress: "192.0.2.7", userAgent: "agent 7",
            rememberMe: false)
        try await writer.createSession(session)

        let reader = try SQLiteServerStore(fileURL: file)
        let found = try #require(try await reader.sessionWithUser(tokenHash: SessionTokenHash(hex: "hash7")))
        #expect(found.session == session)
        #expect(found.user == user)
    }
}
