import TandemBasics

/// Row positions of the Kasia relay and the chain index (issue 11 item 2, issue 25): each new
/// position is `max(now, last + 1)` — unique, increasing in commit order, never behind the wall
/// clock — written once for both backends (issue 26 item 2). The writer holds the store's one
/// write lock while it hands positions out, so commit order is position order. PostgreSQL's
/// one-statement group commit of relayed rows (`PostgresKasiaBatch`) states the same rule in
/// SQL; the contract suite checks the two backends' positions alike.
struct KasiaPositions: Sendable, Equatable {
    /// The newest position handed out (nil before the first row).
    private(set) var last: Int64?

    /// The position a row written at `now` would take.
    func next(at now: UnixMillis) -> Int64 {
        last.map { max(now.rawValue, $0 + 1) } ?? now.rawValue
    }

    /// Hands out the next position at `now`.
    mutating func take(at now: UnixMillis) -> Int64 {
        let position = next(at: now)
        last = position
        return position
    }
}
