import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle
import TandemAPI
import TandemBasics
import TandemServerStore

/// `GET /kasia/stream?alias=HEX&address=ADDR&…`: Server-Sent Events of new rows (issue 11
/// item 3). `event:` is the row kind, `id:` its position (unique and commit-ordered, so a
/// resume cursor; a relayed row's block time), `data:` the indexer row's JSON. `Last-Event-ID`
/// (or `last_event_id=`) replays from the store, then the stream goes live with no gap and no
/// duplicate. A row the chain moves (accepted, or returned to unaccepted by a reorg) is sent
/// again with its new position; a row a reorg removes is not announced (issue 25).
struct RelayStreamController: Sendable {
    let store: any RelayStore
    let hub: RelayHub
    let heartbeat: Duration

    /// Most watched aliases, and most watched addresses, per stream.
    static let maxWatched = 64
    /// Rows per store read while replaying.
    static let replayBatch = 200
    static let lastEventID = HTTPField.Name("Last-Event-ID")!

    func register(on router: Router<TandemRequestContext>, table: RouteTable) {
        table.add(router, .get, APIPath.kasiaStream) { request, _ in
            do {
                return try await stream(request)
            } catch let failure as IndexerQuery.Failure {
                return JSONResponse.raw(IndexerRowJSON.error(failure.message), status: .badRequest, headers: [:])
            }
        }
    }

    func stream(_ request: Request) async throws -> Response {
        let query = IndexerQuery(request.uri.queryParameters)
        let watch = try Self.watch(query)
        let resume = try Self.resumeCursor(request, query)
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        let (store, hub, heartbeat) = (store, hub, heartbeat)
        // Subscribing inside the body ties the subscription's life to the connection's: a
        // response that is never written leaves nothing behind in the hub.
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                let subscription = try await hub.subscribe(watch)
                let box = ResponseWriterBox(writer)
                do {
                    // Read after subscribing: rows newer than this reach the subscription live.
                    var start = resume ?? 0
                    if resume == nil { start = try await store.latestKasiaPosition() ?? start }
                    let pump = RelayStreamPump(
                        store: store, subscription: subscription, start: start, replayBatch: Self.replayBatch)
                    try await pump.run(writing: box, heartbeat: heartbeat)
                } catch {
                    await hub.unsubscribe(subscription)
                    throw error
                }
                await hub.unsubscribe(subscription)
                let finishing = box.writer
                try await finishing.finish(nil)
            })
    }

    static func watch(_ query: IndexerQuery) throws(IndexerQuery.Failure) -> KasiaWatch {
        let aliases = query.values("alias")
        let addresses = query.values("address")
        guard !aliases.isEmpty || !addresses.isEmpty else {
            throw IndexerQuery.Failure(message: "watch at least one alias= or address=")
        }
        guard aliases.count <= maxWatched, addresses.count <= maxWatched else {
            throw IndexerQuery.Failure(message: "watch at most \(maxWatched) aliases and \(maxWatched) addresses")
        }
        var aliasHexes: Set<String> = []
        for alias in aliases {
            try IndexerQuery.checkHexTag(alias, name: "alias", maxHexLength: 32)
            aliasHexes.insert(alias.lowercased())
        }
        var watched: Set<String> = []
        for address in addresses { watched.insert(try IndexerQuery.address(address)) }
        return KasiaWatch(addresses: watched, aliasHexes: aliasHexes)
    }

    static func resumeCursor(_ request: Request, _ query: IndexerQuery) throws(IndexerQuery.Failure) -> Int64? {
        guard let text = request.headers[lastEventID] ?? query.value("last_event_id") else { return nil }
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            throw IndexerQuery.Failure(message: "Invalid Last-Event-ID: \(text)")
        }
        return value
    }
}
