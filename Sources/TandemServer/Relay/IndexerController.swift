import Foundation
import Hummingbird
import KaspaCrypto
import TandemAPI
import TandemBasics
import TandemServerStore

/// The kasia-indexer-compatible reads under `/kasia` (kasia-protocol §10): a Kasia client
/// pointed at `http://host:port/kasia` reads everything the relay stores. Rows ascend by
/// `block_time` from the inclusive cursor; `limit` defaults to 10 and is capped at 50; bad
/// query parameters answer 400 `{"error": …}` like the indexer.
struct IndexerController: Sendable {
    let store: any RelayStore

    static let defaultLimit = 10
    static let maxLimit = 50

    func register(on router: Router<TandemRequestContext>, table: RouteTable) {
        route(router, table, APIPath.kasiaHandshakesBySender) { query in
            try await page(.handshakesBySender(try query.address("address")), query)
        }
        route(router, table, APIPath.kasiaHandshakesByReceiver) { query in
            try await page(.handshakesByReceiver(try query.address("address")), query)
        }
        route(router, table, APIPath.kasiaContextualMessagesBySender) { query in
            let sender = try query.address("address")
            let alias = try query.hexTag("alias", maxHexLength: 32)
            return try await page(
                .contextualMessages(sender: sender, aliasHex: alias.lowercased()), query,
                presentation: .init(aliasEcho: alias))
        }
        route(router, table, APIPath.kasiaPaymentsBySender) { query in
            let sender = try query.address("address")
            return try await page(
                .paymentsBySender(sender), query, presentation: .init(paymentSenderEcho: query.value("address")))
        }
        route(router, table, APIPath.kasiaPaymentsByReceiver) { query in
            try await page(.paymentsByReceiver(try query.address("address")), query)
        }
        route(router, table, APIPath.kasiaSelfStashByOwner) { query in
            let owner = try query.address("owner")
            let scope = try query.hexTag("scope", maxHexLength: 510)
            return try await page(
                .selfStashes(owner: owner, scopeHex: scope.lowercased()), query, presentation: .init(scopeEcho: scope))
        }
        table.add(router, .get, APIPath.kasiaMetrics) { _, _ in
            let counts = try await store.kasiaCounts()
            var metrics = IndexerMetrics(
                handshakes: UInt64(counts[.handshake]), payments: UInt64(counts[.payment]),
                contextualMessages: UInt64(counts[.contextualMessage]))
            // With a chain index, the last chain block whose transactions are stored.
            if let cursor = try await store.kasiaChainCursor() {
                metrics.latestBlock = cursor.block
                metrics.latestAcceptingBlock = cursor.block
            }
            return JSONResponse.raw(IndexerRowJSON.metrics(metrics), status: .ok, headers: [:])
        }
    }

    /// Registers a GET whose query problems become the indexer's 400 `{"error"}`.
    private func route(
        _ router: Router<TandemRequestContext>, _ table: RouteTable, _ path: String,
        _ handler: @escaping @Sendable (IndexerQuery) async throws -> [UInt8]
    ) {
        table.add(router, .get, path) { request, _ in
            do {
                let body = try await handler(IndexerQuery(request.uri.queryParameters))
                return JSONResponse.raw(body, status: .ok, headers: [:])
            } catch let failure as IndexerQuery.Failure {
                return JSONResponse.raw(IndexerRowJSON.error(failure.message), status: .badRequest, headers: [:])
            }
        }
    }

    private func page(
        _ selection: KasiaIndexQuery, _ query: IndexerQuery, presentation: IndexerRowJSON.Presentation = .init()
    ) async throws -> [UInt8] {
        let limit = try query.limit(default: Self.defaultLimit, max: Self.maxLimit)
        let cursor = try query.blockTime()
        let records = limit == 0 ? [] : try await store.kasiaRecords(selection, from: cursor, limit: limit)
        return IndexerRowJSON.array(records, presentation)
    }
}
