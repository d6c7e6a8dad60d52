import BenchSupport
import ChatHistory
import ChatTimeline
public import Foundation
public import MicroBenchmarks
import TandemTesting

/// `tandem-bench paging`: page latency deep in one very long conversation, keyset against OFFSET
/// (timeline-and-contacts.md §1.5; issue 6 "Paging benchmark").
///
/// Depth d means "the page after the d-th newest row": keyset asks for rows older than that
/// row's key, OFFSET skips d + 1 rows; both return the same 50 rows, which the run checks.
public enum PagingBench {
    public static let pageSize = 50

    public struct DepthResult: Sendable, Encodable {
        public let label: String
        public let depth: Int
        public let keyset: BenchMeasurement
        public let offset: BenchMeasurement
    }

    public struct Result: Sendable, Encodable {
        public let messages: Int
        public let pageSize: Int
        public let setupSeconds: Double
        public let depths: [DepthResult]
        /// Keyset latency at the deepest page over keyset latency at depth 0 (target ≤ 1.5).
        public let keysetDeepToShallowRatio: Double
    }

    /// What went wrong while benchmarking.
    public enum BenchError: Error, Sendable, CustomStringConvertible {
        case pagesDiffer(depth: Int)
        case missingRow(depth: Int)

        public var description: String {
            switch self {
            case .pagesDiffer(let depth): "keyset and OFFSET returned different rows at depth \(depth)"
            case .missingRow(let depth): "no row at depth \(depth)"
            }
        }
    }

    /// Builds a store of `messages` rows in `directory`, then measures each depth.
    public static func run(messages: Int, directory: URL) throws -> Result {
        let clock = ContinuousClock()
        let conversation = ConversationID("kaspa:qbenchcontact")
        var store: ChatHistoryStore?
        let setup = try clock.measure {
            store = try makeStore(messages: messages, conversation: conversation, directory: directory)
        }
        guard let store else { throw BenchError.missingRow(depth: 0) }
        var results: [DepthResult] = []
        for (label, depth) in depths(messages: messages) {
            guard let cursor = try store.page(in: conversation, offset: depth, limit: 1).rows.first?.key else {
                throw BenchError.missingRow(depth: depth)
            }
            let keysetRows = try store.page(in: conversation, olderThan: cursor, limit: pageSize).rows.map(\.id)
            let offsetRows = try store.page(in: conversation, offset: depth + 1, limit: pageSize).rows.map(\.id)
            guard keysetRows == offsetRows, keysetRows.count == pageSize else {
                throw BenchError.pagesDiffer(depth: depth)
            }
            let keyset = try timed("keyset @ \(label)") {
                blackHole(try store.page(in: conversation, olderThan: cursor, limit: pageSize))
            }
            let offset = try timed("OFFSET @ \(label)") {
                blackHole(try store.page(in: conversation, offset: depth + 1, limit: pageSize))
            }
            results.append(DepthResult(label: label, depth: depth, keyset: keyset, offset: offset))
        }
        let shallow = results.first?.keyset.medianNanoseconds ?? 1
        let deep = results.last?.keyset.medianNanoseconds ?? 0
        return Result(
            messages: messages, pageSize: pageSize, setupSeconds: setup.nanoseconds / 1e9,
            depths: results, keysetDeepToShallowRatio: deep / shallow)
    }

    /// 0, 10k, 500k and the last full page (labelled with the conversation size), where they fit.
    static func depths(messages: Int) -> [(String, Int)] {
        let last = messages - pageSize - 2
        var result: [(String, Int)] = [("depth 0", 0)]
        for depth in [10_000, 500_000] where depth < last { result.append(("depth \(depth / 1_000)k", depth)) }
        result.append(
            ("depth \(messages >= 1_000_000 ? "\(messages / 1_000_000)M" : "\(messages)") (last page)", max(0, last)))
        return result
    }

    /// Enough iterations per sample for about 20 ms, so fast queries are not lost in timer noise.
    static func timed(_ name: String, _ body: () throws -> Void) throws -> BenchMeasurement {
        let clock = ContinuousClock()
        let once = try clock.measure(body).nanoseconds
        let iterations = max(1, min(2_000, Int(20_000_000 / max(once, 1))))
        return try measure(name, samples: once > 50_000_000 ? 5 : 11, iterations: iterations, body)
    }

    /// One conversation of `messages` rows: block times a second apart with every fifth pair
    /// tied, random UUIDs from a fixed seed, 64-byte bodies.
    static func makeStore(messages: Int, conversation: ConversationID, directory: URL) throws -> ChatHistoryStore {
        let store = try ChatHistoryStore(path: directory.appendingPathComponent("paging-bench.sqlite").path)
        var rng = SeededRandom(seed: 0xC0FFEE)
        let body = Data(repeating: 0xAB, count: 64)
        var index = 0
        while index < messages {
            let batch = (index..<min(messages, index + 20_000)).map { row -> StoredMessage in
                let time = 1_700_000_000_000 + UInt64(row - (row % 5 == 1 ? 1 : 0)) * 1_000
                return StoredMessage(
                    id: rng.messageID(), conversation: conversation, txID: TxID("bench-\(row)"),
                    blockTime: time, timestamp: Int64(time), status: .confirmed,
                    direction: row % 2 == 0 ? .incoming : .outgoing, kind: .text, body: body)
            }
            try store.save(contentsOf: batch)
            index += batch.count
        }
        return store
    }

    public static func markdown(_ result: Result, machine: String) -> String {
        var lines = [
            "### Keyset vs OFFSET paging: \(result.messages) messages in one conversation, \(result.pageSize)-row pages",
            "",
            "Machine: \(machine). Store built in \(rounded(result.setupSeconds, places: 1)) s.",
            "",
            "| depth | keyset | OFFSET | OFFSET ÷ keyset |",
            "|---|---:|---:|---:|",
        ]
        for row in result.depths {
            let ratio = row.offset.medianNanoseconds / max(row.keyset.medianNanoseconds, 1)
            lines.append(
                "| \(row.label) | \(formatDuration(row.keyset.medianNanoseconds)) | \(formatDuration(row.offset.medianNanoseconds)) | \(formatRatio(ratio)) |"
            )
        }
        let verdict = result.keysetDeepToShallowRatio <= 1.5 ? "meets" : "misses"
        lines.append("")
        lines.append(
            "Keyset at the deepest page is \(formatRatio(result.keysetDeepToShallowRatio)) its depth-0 latency (\(verdict) the ≤ 1.5× target)."
        )
        return lines.joined(separator: "\n")
    }
}
