import Foundation
import NIOConcurrencyHelpers
import TandemAPI

/// Write-through cache of session and user rows for the SQLite backend. The server process is
/// the only writer of its SQLite file (one machine, ARCHITECTURE.md "Scale"), and every write
/// to these rows goes through `SQLiteServerStore`, which updates this cache in the same call,
/// so a hit is never stale. It removes the database read from get-session (BENCHMARKS.md,
/// issue 4). Bounded: it empties itself past `capacity` entries.
final class SQLiteRowCache: Sendable {
    private struct State {
        var sessions: [String: StoredSession] = [:]
        var hashByID: [String: String] = [:]
        var users: [String: AuthUser] = [:]
    }

    private let state = NIOLockedValueBox(State())
    private let capacity: Int

    init(capacity: Int = 100_000) { self.capacity = capacity }

    func session(tokenHash: SessionTokenHash) -> StoredSession? {
        state.withLockedValue { $0.sessions[tokenHash.hex] }
    }

    func store(_ session: StoredSession) {
        var normalized = session
        normalized.expiresAt = Date(storeMillis: session.expiresAt.storeMillis)
        normalized.createdAt = Date(storeMillis: session.createdAt.storeMillis)
        normalized.updatedAt = Date(storeMillis: session.updatedAt.storeMillis)
        state.withLockedValue { state in
            if state.sessions.count >= capacity { state.sessions = [:]; state.hashByID = [:] }
            state.sessions[normalized.tokenHash.hex] = normalized
            state.hashByID[normalized.id.rawValue] = normalized.tokenHash.hex
        }
    }

    func refresh(id: SessionID, expiresAt: Date, updatedAt: Date) {
        state.withLockedValue { state in
            guard let hash = state.hashByID[id.rawValue] else { return }
            state.sessions[hash]?.expiresAt = Date(storeMillis: expiresAt.storeMillis)
            state.sessions[hash]?.updatedAt = Date(storeMillis: updatedAt.storeMillis)
        }
    }

    func removeSession(id: SessionID) {
        state.withLockedValue { state in
            guard let hash = state.hashByID.removeValue(forKey: id.rawValue) else { return }
            state.sessions[hash] = nil
        }
    }

    func user(id: UserID) -> AuthUser? {
        state.withLockedValue { $0.users[id.rawValue] }
    }

    func store(_ user: AuthUser) {
        state.withLockedValue { state in
            if state.users.count >= capacity { state.users = [:] }
            state.users[user.id] = user
        }
    }
}
