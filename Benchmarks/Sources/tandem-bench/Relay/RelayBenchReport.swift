import BenchSupport
import Foundation
import MicroBenchmarks

/// The figures of `tandem-bench relay`, as JSON (`--json`) or a Markdown summary for
/// BENCHMARKS.md.
struct RelayBenchReport: Encodable {
    let sqlite: RelaySubmissionLoad.Result
    /// The SQLite store alone, in the bench's process (`--store-rows 0` leaves it out).
    let store: RelayStoreAlone.Result?
    let postgres: RelaySubmissionLoad.Result?
    let stream: RelayStreamLatency.Result
    let paging: RelayPagingBench.Result

    var markdown: String {
        var lines = [
            "### Submissions vs raw BIP-340 verify (medians of \(sqlite.samples) interleaved samples)",
            "",
            "| backend | lane | requests/s | raw verifies/s (1 core) | ÷ verifies | best requests/s | server CPU/request | client CPU/request | unexpected status |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        lines += rows("SQLite", sqlite)
        if let postgres { lines += rows("PostgreSQL", postgres) }
        lines += [
            "",
            "\(sqlite.connections) keep-alive connections, \(sqlite.submissionsPerSample) distinct signed submissions per sample.",
        ]
        if let store {
            lines += [
                "",
                "### The SQLite store alone (in the bench's process, no HTTP, parse or verify)",
                "",
                "| rows per sample | concurrent tasks | senders | CPU per stored row | raw verify | ÷ verify |",
                "|---:|---:|---:|---:|---:|---:|",
                "| \(store.rowsPerSample) | \(store.connections) | \(store.senders) | "
                    + "\(String(format: "%.1f µs", store.cpuMicrosecondsPerRow)) | "
                    + "\(String(format: "%.1f µs", store.verifyMicroseconds)) | \(String(format: "%.2f×", store.ratio)) |",
            ]
        }
        lines += [
            "",
            "### Submit → stream delivery with \(stream.streams) idle streams open",
            "",
            "| measurement | value |",
            "|---|---:|",
            "| submissions (one every \(stream.intervalMilliseconds) ms) / delivered | \(stream.submissions) / \(stream.delivered) |",
            "| latency p50 / p99 / max | \(ms(stream.p50Milliseconds)) / \(ms(stream.p99Milliseconds)) / \(ms(stream.maxMilliseconds)) |",
            "| server RSS before / after opening the idle streams | \(mib(stream.serverResidentBytesBefore)) / \(mib(stream.serverResidentBytesAfter)) |",
            "| server memory per idle stream | \(String(format: "%.1f KiB", stream.bytesPerIdleStream / 1024)) |",
            "",
            "### contextual-messages/by-sender, \(paging.pageRows)-row pages, \(paging.rows) rows of one sender and alias",
            "",
            "| page | median |",
            "|---|---:|",
            "| depth 0 | \(String(format: "%.1f µs", paging.depth0Microseconds)) |",
            "| depth \(paging.rows) (last page) | \(String(format: "%.1f µs", paging.deepMicroseconds)) |",
            "| deep ÷ depth 0 | \(String(format: "%.2f×", paging.ratio)) |",
            "",
            "Store filled in \(String(format: "%.1f s", paging.fillSeconds)).",
        ]
        return lines.joined(separator: "\n")
    }

    private func rows(_ backend: String, _ result: RelaySubmissionLoad.Result) -> [String] {
        result.lanes.map { lane in
            "| \(backend) | \(lane.name) | \(Int(lane.requestsPerSecond)) | \(Int(result.verifiesPerSecond)) | "
                + "\(String(format: "%.2f×", lane.ratio)) | \(Int(lane.bestRequestsPerSecond)) | "
                + "\(String(format: "%.0f µs", lane.serverCPUMicrosecondsPerRequest)) | "
                + "\(String(format: "%.0f µs", lane.clientCPUMicrosecondsPerRequest)) | \(lane.unexpectedStatus) |"
        }
    }

    private func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
    private func mib(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
}
