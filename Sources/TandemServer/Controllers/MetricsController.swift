import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TandemAPI
import TandemServerStore

/// `GET /metrics`: Prometheus text (issue 13 item 6). It answers 404 unless the server runs
/// with `--metrics`: the figures (request rates by route, failed sign-ins) describe the
/// deployment, so an operator opts in and keeps the route for the scraper (README: deny it at
/// the proxy, or scrape the loopback port).
struct MetricsController: Sendable {
    let metrics: ServerMetrics?
    let hub: RelayHub
    /// The chain index's state, when the server follows a Kaspa node (issue 25 item 3).
    var chain: KasiaChainStatus? = nil

    func register(on router: Router<TandemRequestContext>, table: RouteTable) {
        table.add(router, .get, APIPath.metrics) { _, _ in
            guard let metrics else { return Response(status: .notFound) }
            let text = metrics.exposition(relayStreams: await hub.subscriberCount, chain: chain?.snapshot)
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: text)))
        }
    }
}
