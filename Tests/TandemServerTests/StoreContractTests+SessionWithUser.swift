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
}
