import Foundation
import Metrics
import Prometheus
import TandemAPI
import TandemBasics
import TandemServerStore

/// The server's Prometheus metrics (issue 13 item 6), recorded through swift-metrics into a
/// per-application swift-prometheus registry (never the process-global `MetricsSystem`, so
/// two applications in one test process keep separate figures).
///
/// Request counts and latency are labelled by the *registered* route pattern, never the raw
/// path, so the number of series is bounded by the route table.
final class ServerMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Database calls running now, counted at the store's choke points (`StoreActivity`).
    let database: StoreActivity

    init(database: StoreActivity = StoreActivity()) {
        self.database = database
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5),
        ]
        self.factory = factory
    }

    /// One answered request: its count and latency by method, route and status, plus the
    /// counters derived from it (sign-in failures, rate-limit hits, relay submissions).
    func record(method: String, route: String, status: Int, nanoseconds: Int64) {
        let dimensions = [("method", method), ("route", route), ("status", String(status))]
        Counter(label: "tandem_http_requests_total", dimensions: dimensions, factory: factory).increment()
        Metrics.Timer(label: "tandem_http_request_duration_seconds", dimensions: dimensions, factory: factory)
            .recordNanoseconds(nanoseconds)
        if route.hasPrefix("/api/auth/sign-in") && status == 401 {
            Counter(label: "tandem_sign_in_failures_total", dimensions: [("route", route)], factory: factory)
                .increment()
        }
        if status == 429 {
            Counter(label: "tandem_rate_limited_total", dimensions: [("route", route)], factory: factory).increment()
        }
        if route == APIPath.kasiaTransactions && method == "POST" {
            Counter(label: "tandem_relay_submissions_total", dimensions: [("status", String(status))], factory: factory)
                .increment()
        }
    }

    /// The Prometheus text exposition; gauges that describe "now" are set just before. With a
    /// chain index: whether this instance ingests, whether the index is synced, how many blocks
    /// it lags (absent while unknown), the cursor's DAA score, and failed node steps since start.
    func exposition(relayStreams: Int, chain: KasiaChainStatus.Snapshot? = nil) -> [UInt8] {
        Gauge(label: "tandem_relay_streams", factory: factory).record(relayStreams)
        if let chain {
            Gauge(label: "tandem_kasia_chain_ingesting", factory: factory).record(chain.role == .ingester ? 1 : 0)
            Gauge(label: "tandem_kasia_chain_synced", factory: factory).record(chain.synced ? 1 : 0)
            if let lag = chain.lagBlocks {
                Gauge(label: "tandem_kasia_chain_lag_blocks", factory: factory).record(Int64(clamping: lag))
            }
            if let cursor = chain.cursor {
                Gauge(label: "tandem_kasia_chain_daa_score", factory: factory).record(Int64(clamping: cursor.daaScore))
            }
            Gauge(label: "tandem_kasia_chain_node_failures", factory: factory).record(chain.failures)
        }
        Gauge(label: "tandem_database_operations_in_flight", factory: factory)
            .record(database.inFlight)
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}
