import NIOCore
import TandemBasics
import TandemServerStore

/// get-session's answers remembered by the (percent-decoded) cookie value that earned them, for a store
/// with a row generation (`AccountStore.rowGeneration`: SQLite). A client asks get-session
/// again and again with the same cookie; a remembered answer skips the cookie's HMAC, the
/// token's SHA-256, both row lookups and the JSON, which were most of the route's own work
/// (BENCHMARKS.md, issue 29).
///
/// An answer is used only while all of these hold, so it is always the answer the full path
/// would give:
/// - the store's generation is the one read *before* the rows behind the answer were read
///   (no session was refreshed or deleted and no user changed since);
/// - the session has not expired (`now < expiresAt`);
/// - the sliding refresh is not due (or the request asked for no refresh), since a refresh
///   writes the row and sends a new cookie.
///
/// A cookie value gets here only after its signature verified, so nothing a client invents
/// is stored; it is keyed percent-decoded, so the spellings of one cookie share an entry.
/// Bounded: past `capacity` entries the table empties itself (a miss is only the full path).
/// The table holds one generation: an answer of a newer one empties it first (every older
/// entry is unusable from then on, and a deleted user's answer should not stay in memory),
/// and an answer of an older one is dropped.
///
/// The generation is the store's, one counter for every session and user: any refresh, sign-out
/// or profile change anywhere makes every remembered answer miss once. That keeps the rule
/// simple and always exact; a busy server with many such changes gets fewer hits, never a
/// wrong answer.
final class SessionAnswers: Sendable {
    private struct Entry {
        let expiresAt: UnixMillis
        /// When the sliding refresh becomes due; nil for a session that is never extended.
        let refreshDue: UnixMillis?
        let body: ByteBuffer
    }

    /// Every entry was built at `generation`.
    private struct Table {
        var generation: UInt64 = 0
        var entries: [String: Entry] = [:]
    }

    private let table = Locked(Table())
    private let capacity: Int

    init(capacity: Int = 10_000) { self.capacity = capacity }

    /// The remembered body for `cookieValue`, when it is still exact (see the type's note).
    func body(for cookieValue: String, generation: UInt64, now: UnixMillis, allowRefresh: Bool) -> ByteBuffer? {
        guard let entry = table.withLock({ $0.generation == generation ? $0.entries[cookieValue] : nil }),
            now < entry.expiresAt
        else { return nil }
        if allowRefresh, let due = entry.refreshDue, now >= due { return nil }
        return entry.body
    }

    /// Remembers the answer built from rows read after the store's generation was `generation`.
    func remember(
        _ body: ByteBuffer, for cookieValue: String, generation: UInt64, expiresAt: UnixMillis,
        refreshDue: UnixMillis?
    ) {
        let entry = Entry(expiresAt: expiresAt, refreshDue: refreshDue, body: body)
        let emptied = table.withLock { table -> [String: Entry]? in
            if generation < table.generation { return nil }
            var emptied: [String: Entry]?
            if generation > table.generation || table.entries.count >= capacity {
                table.generation = generation
                // Freed below, outside the lock and off the request's thread.
                emptied = table.entries
                table.entries = [:]
            }
            table.entries[cookieValue] = entry
            return emptied
        }
        if let emptied, !emptied.isEmpty { releaseOffThread(emptied) }
    }

    var count: Int { table.withLock { $0.entries.count } }
}
