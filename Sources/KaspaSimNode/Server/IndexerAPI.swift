import Foundation
import Hummingbird
import KasiaIndex
import TandemBasics

/// The kasia-indexer read routes (kasia-protocol §10) at the root of each port, as K-Kluster's
/// kasia-indexer serves them, answered from the chain at the time of the request
/// (``SimulatedChain/kasiaIndex(_:from:limit:)``): point a client's `--indexer` at
/// `http://127.0.0.1:<port>`.
///
/// - `GET /handshakes/by-sender?address=`, `GET /handshakes/by-receiver?address=`
/// - `GET /contextual-messages/by-sender?address=&alias=` (alias: hex of its bytes)
/// - `GET /payments/by-sender?address=`, `GET /payments/by-receiver?address=`
/// - `GET /self-stash/by-owner?owner=&scope=` (scope: hex of its bytes)
/// - `GET /metrics`
///
/// Each read takes `limit` (default 10, at most 50) and `block_time` (inclusive, default 0), and
/// answers a JSON array ascending by block time; bad parameters are a 400 `{"error": …}`.
struct IndexerAPI: Sendable {
    let node: SimulatedKaspaNode

    func register(on router: Router<BasicRequestContext>) {
        for route in KasiaIndexRoute.allCases {
            router.get(RouterPath(route.rawValue)) { request, _ in await rows(route, request) }
        }
        router.get("/metrics") { _, _ in await respond { await metrics() } }
    }

    /// A route's rows written by the shared model (``KasiaIndexRow``), without Tandem's `root`
    /// member: kasia-indexer does not write it. A bad parameter is the indexer's 400.
    private func rows(_ route: KasiaIndexRoute, _ request: Request) async -> Response {
        let read: KasiaIndexRequest
        do throws(KasiaIndexRequestError) {
            read = try KasiaIndexRequest(
                route, pairs: request.uri.queryParameters.map { (String($0.key), String($0.value)) })
        } catch {
            return JSONBytes.response(KasiaIndexJSON.error(error.description), status: .badRequest)
        }
        let rows = await node.read { $0.kasiaIndex(read.selection, from: read.blockTime, limit: read.limit) }
        return JSONBytes.response(KasiaIndexJSON.array(rows, presentation: read.presentation), status: .ok)
    }

    private func metrics() async -> IndexerMetrics {
        await node.read { chain in
            let entries = chain.kasiaIndex
            func tally(_ isCounted: (KasiaIndexRow) -> Bool) -> UInt64 { UInt64(entries.count(where: isCounted)) }
            return IndexerMetrics(
                handshakes: tally { $0.kind == .handshake }, payments: tally { $0.kind == .payment },
                contextualMessages: tally { $0.kind == .contextualMessage },
                unknownSenders: tally { $0.sender == nil }, blocks: UInt64(chain.blocks.count),
                tip: Hex.encode(chain.tip.hash))
        }
    }
}

/// `GET /metrics`: kasia-indexer's `IndexerMetricsSnapshot`, with its member names since August
/// 2025 (the receiver counts are `uniq_…`). Every entry is keyed by its sender and its receiver
/// alike; the simulation resolves senders at once and prunes nothing.
struct IndexerMetrics: Encodable, Sendable {
    var handshakes: UInt64
    var payments: UInt64
    var contextualMessages: UInt64
    var unknownSenders: UInt64
    var blocks: UInt64
    /// Hex of the chain tip: the latest block and the latest accepting block.
    var tip: String

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        for (name, count) in [
            ("handshakes_by_sender", handshakes), ("uniq_handshakes_by_receiver", handshakes),
            ("payments_by_sender", payments), ("uniq_payments_by_receiver", payments),
            ("contextual_messages", contextualMessages), ("blocks_processed", blocks),
        ] {
            try object.encode(count, forKey: JSONKey(name))
        }
        try object.encode(tip, forKey: "latest_block")
        try object.encode(tip, forKey: "latest_accepting_block")
        try object.encode(unknownSenders, forKey: "unknown_sender_entries")
        try object.encode(UInt64(0), forKey: "resolved_senders")
        try object.encode(UInt64(0), forKey: "pruned_blocks")
    }
}

/// A JSON object member's name, for the objects written member by member.
struct JSONKey: CodingKey, ExpressibleByStringLiteral {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    init(stringLiteral value: String) { stringValue = value }
}
