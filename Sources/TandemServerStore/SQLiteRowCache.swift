import Foundation
import TandemAPI
import TandemBasics

/// Write-through cache of session and user rows for the SQLite backend. The server process is
/// the only writer of its SQLite file (one machine, ARCHITECTURE.md "Scale"), and every write
/// to these rows goes through `SQLiteServerStore`, which updates this cache in the same call,
/// so a hit is never stale. It removes the database read from get-session (BENCHMARKS.md,
/// issue 4). Bounded: it empties itself past `capacity` entries. Its tables are sized for
/// `capacity` from the start and after each emptying, so filling them never rehashes every
/// entry as they grow, and the entries of a full table are freed off the request's thread and
/// outside the lock (issue 49 item 6: on a load where every session is new, growing and emptying
/// the tables cost a quarter of the read and stalled every request behind the lock).
///
/// A miss is filled from a read that happened *before* the fill, so a sign-out (or refresh)
/// committed in between would be undone by the fill (issue 14 audit). Readers therefore take
/// a `FillTicket` before reading, and `fill` stores only when no session was removed or
/// refreshed since: the generation counts those changes (and user changes, for user rows). A skipped fill is only a later miss.
final class SQLiteRowCache: Sendable {
    /// The session generation a reader saw before it read the row.
    struct FillTicket: Sendable { fileprivate let generation: UInt64 }

    private struct State {
        var generation: UInt64 = 0
        var sessions: [String: StoredSession]
        var hashByID: [String: String]
        var users: [String: AuthUser]
    }

    private let state: Locked<State>
    private let capacity: Int

    init(capacity: Int = 100_000) {
        self.capacity = capacity
        state = Locked(
            State(
                sessions: Dictionary(minimumCapacity: capacity), hashByID: Dictionary(minimumCapacity: capacity),
                users: Dictionary(minimumCapacity: capacity)))
    }

    /// Empties a full table: `table` starts again at full size, and the old entries are handed
    /// back to be freed once the lock is released.
    private static func emptied<Value>(_ table: inout [String: Value], capacity: Int) -> [String: Value] {
        let full = table
        table = Dictionary(minimumCapacity: capacity)
        return full
    }

    /// Counts the removals and refreshes of sessions and the changes and removals of users
    /// (`AccountStore.rowGeneration`).
    var generation: UInt64 { state.withLock { $0.generation } }

    func session(tokenHash: SessionTokenHash) -> StoredSession? {
        state.withLock { $0.sessions[tokenHash.hex] }
    }

    /// Take before reading a session row that may fill the cache.
    func fillTicket() -> FillTicket {
        state.withLock { FillTicket(generation: $0.generation) }
    }

    /// Caches a session read after `ticket` was taken, unless a session was removed or
    /// refreshed meanwhile (the read may predate that change).
    func fill(_ session: StoredSession, ifUnchangedSince ticket: FillTicket) {
        store(session, onlyAt: ticket.generation)
    }

    /// Caches a session this process has just written.
    func store(_ session: StoredSession) { store(session, onlyAt: nil) }

    private func store(_ session: StoredSession, onlyAt generation: UInt64?) {
        let full = state.withLock { state -> (sessions: [String: StoredSession], hashByID: [String: String])? in
            if let generation, generation != state.generation { return nil }
            var full: (sessions: [String: StoredSession], hashByID: [String: String])?
            if state.sessions.count >= capacity {
                full = (
                    Self.emptied(&state.sessions, capacity: capacity), Self.emptied(&state.hashByID, capacity: capacity)
                )
            }
            state.sessions[session.tokenHash.hex] = session
            state.hashByID[session.id.rawValue] = session.tokenHash.hex
            return full
        }
        if let full { releaseOffThread(full) }
    }

    func refresh(id: SessionID, expiresAt: UnixMillis, updatedAt: UnixMillis) {
        state.withLock { state in
            state.generation &+= 1
            guard let hash = state.hashByID[id.rawValue] else { return }
            state.sessions[hash]?.expiresAt = expiresAt
            state.sessions[hash]?.updatedAt = updatedAt
        }
    }

    func removeSession(id: SessionID) {
        state.withLock { state in
            state.generation &+= 1
            guard let hash = state.hashByID.removeValue(forKey: id.rawValue) else { return }
            state.sessions[hash] = nil
        }
    }

    /// Forgets several sessions at once (revoke-sessions, delete-user).
    func removeSessions(ids: [SessionID]) {
        state.withLock { state in
            state.generation &+= 1
            for id in ids {
                guard let hash = state.hashByID.removeValue(forKey: id.rawValue) else { continue }
                state.sessions[hash] = nil
            }
        }
    }

    func user(id: AccountID) -> AuthUser? {
        state.withLock { $0.users[id.rawValue] }
    }

    /// Caches a user read after `ticket` was taken, unless a user changed meanwhile.
    func fill(_ user: AuthUser, ifUnchangedSince ticket: FillTicket) {
        store(user, onlyAt: ticket.generation)
    }

    /// Caches a user this process has just written (update-user).
    func store(_ user: AuthUser) { store(user, onlyAt: nil) }

    /// `generation` nil: a write of this process, which moves the generation.
    private func store(_ user: AuthUser, onlyAt generation: UInt64?) {
        let full = state.withLock { state -> [String: AuthUser]? in
            if let generation {
                guard generation == state.generation else { return nil }
            } else {
                state.generation &+= 1
            }
            let full = state.users.count >= capacity ? Self.emptied(&state.users, capacity: capacity) : nil
            state.users[user.id] = user
            return full
        }
        if let full { releaseOffThread(full) }
    }

    /// Forgets a deleted user (delete-user).
    func removeUser(id: AccountID) {
        state.withLock { state in
            state.generation &+= 1
            state.users[id.rawValue] = nil
        }
    }
}
