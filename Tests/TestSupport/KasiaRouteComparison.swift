public import Foundation

/// Reads kasia-indexer routes from two servers and lists where they differ (issue 25: the
/// server's chain index against the simulated node's indexer). Works over any HTTP client:
/// `fetch` answers the status and body of a GET of a path with its query.
public enum KasiaRouteComparison {
    public typealias Fetch = @Sendable (String) async throws -> (status: Int, body: Data)

    /// One route and its query (without `limit` and `block_time`).
    public struct Query: Sendable, CustomStringConvertible {
        public var route: String
        public var query: String
        public var description: String { "\(route)?\(query)" }
    }

    /// Every route that reads the rows of `addresses`: both sides of handshakes and payments,
    /// self-stashes under `scopeHex`, and contextual messages under each address's aliases
    /// (`aliasHexes[i]` for `addresses[i]`).
    public static func queries(addresses: [String], aliasHexes: [[String]], scopeHex: String) -> [Query] {
        var queries: [Query] = []
        for (index, address) in addresses.enumerated() {
            queries += [
                Query(route: "handshakes/by-sender", query: "address=\(address)"),
                Query(route: "handshakes/by-receiver", query: "address=\(address)"),
                Query(route: "payments/by-sender", query: "address=\(address)"),
                Query(route: "payments/by-receiver", query: "address=\(address)"),
                Query(route: "self-stash/by-owner", query: "owner=\(address)&scope=\(scopeHex)"),
            ]
            for alias in index < aliasHexes.count ? aliasHexes[index] : [] {
                queries.append(
                    Query(route: "contextual-messages/by-sender", query: "address=\(address)&alias=\(alias)"))
            }
        }
        return queries
    }

    /// A check of one of our own members: its value (nil: absent) within its row.
    public typealias MemberCheck = @Sendable (_ value: Any?, _ row: NSDictionary) -> Bool

    /// The members a Tandem server's rows have beside an indexer's: `root` (kasia-protocol §16),
    /// and on payments `verified`, true exactly when a chain block accepted it (issue 50 item 7).
    public static let tandemMembers: [String: MemberCheck] = [
        "root": { value, _ in ["kchat", "ciph_msg"].contains(value as? String) },
        "verified": { value, row in
            guard row["amount"] != nil else { return value == nil }
            return (value as? Bool) == (row["accepting_block"] is String)
        },
    ]

    /// Every row of one route, page after page as KaChat pages (limit 50, next cursor = the
    /// newest block time seen, dedup by tx id), keyed by tx id.
    public static func allRows(_ fetch: Fetch, path: String, query: String) async throws -> [String: NSDictionary] {
        var rows: [String: NSDictionary] = [:]
        var cursor: Int64 = 0
        for _ in 0..<10_000 {
            let (status, body) = try await fetch("\(path)?\(query)&limit=50&block_time=\(cursor)")
            guard status == 200, let page = try JSONSerialization.jsonObject(with: body) as? [NSDictionary] else {
                throw Failure(
                    message: "\(path)?\(query): status \(status), body \(String(decoding: body, as: UTF8.self))")
            }
            var newest = cursor
            for row in page {
                guard let id = row["tx_id"] as? String else { throw Failure(message: "\(path): a row without tx_id") }
                rows[id] = row
                newest = max(newest, (row["block_time"] as? NSNumber)?.int64Value ?? 0)
            }
            if page.count < 50 || newest == cursor { break }
            cursor = newest
        }
        return rows
    }

    /// The differences between `ours` (routes under `ourPrefix`) and `truth` (routes at its
    /// root) over `queries`, at most three per query; and how many rows the truth holds.
    ///
    /// `ourMembers` are members only our rows have (a Tandem server's `root`, which an indexer
    /// does not write): each of our rows must carry every one of them with a value `ourMembers`
    /// accepts, and they are left out of the comparison.
    public static func differences(
        ours: Fetch, ourPrefix: String, truth: Fetch, queries: [Query],
        ourMembers: [String: MemberCheck] = [:]
    ) async throws -> (differences: [String], rows: Int) {
        var differences: [String] = []
        var rows = 0
        for query in queries {
            var mine = try await allRows(ours, path: "\(ourPrefix)/\(query.route)", query: query.query)
            for (id, row) in mine where !ourMembers.isEmpty {
                guard let stripped = row.mutableCopy() as? NSMutableDictionary else { continue }
                for (member, accepts) in ourMembers {
                    if accepts(row[member], row) {
                        stripped.removeObject(forKey: member)
                    } else {
                        differences.append("\(query) tx \(id): member \(member) is \(row[member] ?? "missing")")
                    }
                }
                mine[id] = stripped
            }
            let theirs = try await allRows(truth, path: "/\(query.route)", query: query.query)
            rows += theirs.count
            let missing = Set(theirs.keys).subtracting(mine.keys).sorted()
            let extra = Set(mine.keys).subtracting(theirs.keys).sorted()
            if !missing.isEmpty || !extra.isEmpty {
                differences.append("\(query): missing \(missing.prefix(3)), extra \(extra.prefix(3))")
            }
            for (id, row) in theirs.sorted(by: { $0.key < $1.key }) where mine[id] != nil && mine[id] != row {
                differences.append("\(query) tx \(id): ours \(mine[id].map { "\($0)" } ?? "-"), truth \(row)")
                if differences.count > 20 { return (differences, rows) }
            }
        }
        return (differences, rows)
    }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public init(message: String) { self.message = message }
        public var description: String { message }
    }
}
