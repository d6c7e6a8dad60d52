public import Foundation
public import TandemAPI
public import TandemAccounts
import TandemBasics

/// A kasia-indexer's reads (kasia-protocol §10) over the ``HTTPTransport`` seam: K-Kluster's
/// kasia-indexer, or a Tandem server's under `/kasia` (a relay's, ``RelayClient/indexer``). Paged
/// by KaChat's rule (``IndexerPaging``).
public struct KasiaIndexerClient: Sendable {
    public let server: URL
    private let transport: any HTTPTransport
    public let paging: IndexerPaging
    /// Where the kasia-indexer routes live under ``server``: `/kasia` on a Tandem server's relay,
    /// the root on an indexer named by its URL.
    public let root: String

    /// A reader of the kasia-indexer routes at `indexer`'s root, as the user gives it: K-Kluster's
    /// indexer (`http://host:8080`) or a Tandem server's (`http://host:8080/kasia`; issue 24 item 3).
    public init(indexer: URL, transport: any HTTPTransport, paging: IndexerPaging = IndexerPaging()) {
        self.init(server: indexer, root: "", transport: transport, paging: paging)
    }

    init(server: URL, root: String, transport: any HTTPTransport, paging: IndexerPaging) {
        self.server = server
        self.root = root
        self.transport = transport
        self.paging = paging
    }

    /// `path` (an `APIPath.kasia…` read) under ``root``.
    private func route(_ path: String) -> String {
        guard root != APIPath.kasiaPrefix, path.hasPrefix(APIPath.kasiaPrefix) else { return path }
        return root + path.dropFirst(APIPath.kasiaPrefix.count)
    }

    /// One page of `GET path?query&block_time=&limit=`, ascending from `blockTime` inclusive.
    public func page<Row: IndexerRow>(
        _ type: Row.Type, path: String, query: [URLQueryItem], blockTime: UInt64, limit: Int
    ) async throws(RelayClientError) -> [Row] {
        let items =
            query + [
                URLQueryItem(name: "block_time", value: String(blockTime)),
                URLQueryItem(name: "limit", value: String(limit)),
            ]
        let response = try await exchange(
            TransportRequest(
                method: "GET", url: url(path, query: items), headers: [(name: "Accept", value: "application/json")]))
        guard (200..<300).contains(response.status) else {
            let message =
                (try? APIJSON.decoder().decode(IndexerErrorBody.self, from: response.body))?.error ?? "no error body"
            throw .indexer(status: response.status, message: message)
        }
        // KaChat reads an empty 200 body as no rows (§10).
        if response.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [] }
        return try Self.decode([Row].self, response.body, path: path)
    }

    /// Every row of a route after `cursor`, by KaChat's paging rule; `cursor` ends at the
    /// maximum block time seen. One pass stops after ``IndexerPaging/maximumPages`` requests.
    public func rows<Row: IndexerRow>(
        _ type: Row.Type, path: String, query: [URLQueryItem], after cursor: inout IndexerCursor
    ) async throws(RelayClientError) -> [Row] {
        var all: [Row] = []
        for _ in 0..<paging.maximumPages {
            let page = try await page(type, path: path, query: query, blockTime: cursor.blockTime, limit: paging.limit)
            let (fresh, more) = paging.apply(page: page, to: &cursor)
            all += fresh
            if !more { break }
        }
        return all
    }

    /// `handshakes/by-receiver?address=`.
    public func handshakes(toReceiver address: String, after cursor: inout IndexerCursor) async throws(RelayClientError)
        -> [IndexerHandshake]
    {
        try await rows(
            IndexerHandshake.self, path: route(APIPath.kasiaHandshakesByReceiver),
            query: [URLQueryItem(name: "address", value: address)], after: &cursor)
    }

    /// `handshakes/by-sender?address=`: our own handshakes, for their history rows on a
    /// restored device.
    public func handshakes(bySender address: String, after cursor: inout IndexerCursor) async throws(RelayClientError)
        -> [IndexerHandshake]
    {
        try await rows(
            IndexerHandshake.self, path: route(APIPath.kasiaHandshakesBySender),
            query: [URLQueryItem(name: "address", value: address)], after: &cursor)
    }

    /// `contextual-messages/by-sender?address=&alias=` with `aliasHex` the hex of the alias text.
    public func contextualMessages(
        bySender address: String, aliasHex: String, after cursor: inout IndexerCursor
    ) async throws(RelayClientError) -> [IndexerContextualMessage] {
        try await rows(
            IndexerContextualMessage.self, path: route(APIPath.kasiaContextualMessagesBySender),
            query: [URLQueryItem(name: "address", value: address), URLQueryItem(name: "alias", value: aliasHex)],
            after: &cursor)
    }

    /// `self-stash/by-owner?owner=&scope=` with `scopeHex` the hex of the scope text.
    public func selfStashes(owner: String, scopeHex: String, after cursor: inout IndexerCursor)
        async throws(RelayClientError) -> [IndexerSelfStash]
    {
        // A kasia-indexer may leave a row's owner out (§10 `owner?`): every row here is the owner's.
        try await rows(
            IndexerSelfStash.self, path: route(APIPath.kasiaSelfStashByOwner),
            query: [URLQueryItem(name: "owner", value: owner), URLQueryItem(name: "scope", value: scopeHex)],
            after: &cursor
        ).map { row in
            var named = row
            if named.owner.isEmpty { named.owner = owner }
            return named
        }
    }

    /// `payments/by-receiver?address=`.
    public func payments(toReceiver address: String, after cursor: inout IndexerCursor) async throws(RelayClientError)
        -> [IndexerPayment]
    {
        try await rows(
            IndexerPayment.self, path: route(APIPath.kasiaPaymentsByReceiver),
            query: [URLQueryItem(name: "address", value: address)], after: &cursor)
    }

    // MARK: Exchange

    func url(_ path: String, query: [URLQueryItem]) -> URL { Self.endpoint(server, path, query: query) }

    /// `server` + `path` (which starts with `/`) + the query, percent-encoded.
    static func endpoint(_ server: URL, _ path: String, query: [URLQueryItem]) -> URL {
        let base = server.appendingPathComponent(String(path.dropFirst()))
        guard !query.isEmpty, var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else {
            return base
        }
        components.queryItems = query
        return components.url ?? base
    }

    func exchange(_ request: TransportRequest) async throws(RelayClientError) -> TransportResponse {
        do { return try await transport.send(request) } catch {
            throw .unreachable(
                server: server.absoluteString, reason: NetworkFailureText.reason(error.localizedDescription))
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data, path: String) throws(RelayClientError) -> T {
        do { return try APIJSON.decoder().decode(T.self, from: data) } catch {
            throw .invalidResponse(path: path, reason: String(describing: error))
        }
    }
}
