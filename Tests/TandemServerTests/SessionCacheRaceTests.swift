import Foundation
import TandemAPI
import TandemBasics
import TestSupport
import Testing

@testable import TandemServer
@testable import TandemServerStore

/// A get-session that misses the SQLite row cache must not put back a session that a
/// concurrent sign-out just deleted (issue 14 audit: read, then cache, without a check).
@Suite struct SessionCacheRaceTests {
    static func session(_ index: Int) -> StoredSession {
        StoredSession(
            id: SessionID("s\(index)"), tokenHash: SessionTokenHash(hex: "hash\(index)"), userID: AccountID("u1"),
            expiresAt: StoreContractTests.millis.advanced(by: .seconds(604_800)), createdAt: StoreContractTests.millis,
            updatedAt: StoreContractTests.millis, ipAddress: "", userAgent: nil, rememberMe: true)
    }

    /// The interleaving itself, step by step: read (ticket taken), sign-out, then the fill.
    @Test func aFillAfterADeleteIsDropped() {
        let cache = SQLiteRowCache()
        let session = Self.session(0)
        let ticket = cache.fillTicket()
        cache.removeSession(id: session.id)
        cache.fill(session, ifUnchangedSince: ticket)
        #expect(cache.session(tokenHash: session.tokenHash) == nil)

        let fresh = cache.fillTicket()
        cache.fill(session, ifUnchangedSince: fresh)
        #expect(cache.session(tokenHash: session.tokenHash) == session)
    }

    @Test func aFillAfterARefreshIsDropped() {
        let cache = SQLiteRowCache()
        let session = Self.session(0)
        let ticket = cache.fillTicket()
        cache.refresh(
            id: session.id, expiresAt: session.expiresAt.advanced(by: .seconds(60)), updatedAt: session.updatedAt)
        cache.fill(session, ifUnchangedSince: ticket)
        #expect(cache.session(tokenHash: session.tokenHash) == nil)
    }

    /// Through the real store: sessions written by another instance on the same file (so this
    /// one's cache misses), then sign-out and get-session at once; afterwards none is found.
    /// `joined`: the lookup reads the session with its user (`sessionWithUser`, get-session's
    /// read since issue 49 item 6), which fills the cache the same way.
    @Test(arguments: [false, true])
    func signOutRacingAColdGetSessionNeverResurrectsTheSession(joined: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("tandem.sqlite")
        let server = try SQLiteServerStore(fileURL: file)
        let other = try SQLiteServerStore(fileURL: file)
        let (user, account, profile) = StoreContractTests.user(
            "u1", username: "anna", email: "anna@example.com", at: StoreContractTests.time)
        try await server.createUser(user, account: account, profile: profile)
        for index in 0..<400 {
            let session = Self.session(index)
            try await other.createSession(session)
            async let signOut: Void = server.deleteSession(id: session.id)
            async let lookup =
                joined
                ? server.sessionWithUser(tokenHash: session.tokenHash)?.session
                : server.session(tokenHash: session.tokenHash)
            _ = try await (signOut, lookup)
            #expect(try await server.sessionWithUser(tokenHash: session.tokenHash) == nil, "session \(index) came back")
            #expect(try await server.session(tokenHash: session.tokenHash) == nil, "session \(index) came back")
        }
    }
}
