import Foundation
import Hummingbird
import KasiaIndex
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

    func register(on router: Router<TandemRequestContext>, table: RouteTable) {
        for route in KasiaIndexRoute.allCases {
            table.add(router, .get, "/kasia" + route.rawValue) { request, _ in
                let read: KasiaIndexRequest
                do throws(KasiaIndexRequestError) {
                    read = try KasiaIndexRequest(
                        route, pairs: request.uri.queryParameters.map { (String($0.key), String($0.value)) })
                } catch {
                    return JSONResponse.raw(KasiaIndexJSON.error(error.description), status: .badRequest, headers: [:])
                }
                let records =
                    read.limit == 0
                    ? []
                    : try await store.kasiaRecords(
                        Self.query(read.selection), from: UnixMillis(Int64(clamping: read.blockTime)), limit: read.limit
                    )
                return JSONResponse.raw(
                    IndexerRowJSON.array(records, read.presentation), status: .ok, headers: [:])
            }
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

    /// The store's query for a route's selection: addresses in canonical text (as rows keep
    /// them), an alias or scope as lowercase hex of its bytes.
    static func query(_ selection: KasiaIndexSelection) -> KasiaIndexQuery {
        switch selection {
        case .handshakesBySender(let address): .handshakesBySender(address.description)
        case .handshakesByReceiver(let address): .handshakesByReceiver(address.description)
        case .contextualMessagesBySender(let address, let alias):
            .contextualMessages(sender: address.description, aliasHex: Hex.encode(alias))
        case .paymentsBySender(let address): .paymentsBySender(address.description)
        case .paymentsByReceiver(let address): .paymentsByReceiver(address.description)
        case .selfStashesByOwner(let address, let scope):
            .selfStashes(owner: address.description, scopeHex: Hex.encode(scope))
        }
    }
}
