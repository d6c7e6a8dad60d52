import BenchSupport
import ChatHistory
import ChatScreen
import ChatTimeline
public import Foundation
public import MicroBenchmarks

/// `tandem-bench chatui`: key press → frame computed in the terminal chat client's screen model
/// over a very long conversation, and resident memory while scrolling all of it (issue 16
/// "Figures"). A frame is `ChatScreen.handle(key)` (which runs any page query the engine asks
/// for) plus `render` into the off-screen frame; the curses copy to the terminal is not in it.
/// The baseline, measured interleaved in the same run, is one ChatHistory keyset page read at
/// the depth the reader has reached.
public enum ChatUIBench {
    public struct Result: Sendable, Encodable {
        public let messages: Int
        public let width: Int
        public let height: Int
        public let setupSeconds: Double
        public let frames: Int
        public let frameP50Milliseconds: Double
        public let frameP99Milliseconds: Double
        public let frameMaxMilliseconds: Double
        public let pageReadP50Milliseconds: Double
        public let pageReadP99Milliseconds: Double
        /// Frame p99 over page-read p99.
        public let p99Ratio: Double
        public let residentStartMB: Double
        public let residentTopMB: Double
        public let residentEndMB: Double
        public let residentMaxMB: Double
        /// The most rows the engine held (window + warm backlog) at any frame.
        public let largestLoadedRows: Int
    }

    public static func run(messages: Int, directory: URL, width: Int = 120, height: Int = 40) throws -> Result {
        let clock = ContinuousClock()
        let peer = "kaspa:qbenchpeerbenchpeerbenchpeerbenchpeerbenchpeerbenchpeerq"
        let conversation = ConversationID(peer)
        let setupStart = clock.now
        let store = try makeStore(messages: messages, conversation: conversation, directory: directory)
        let setup = clock.now - setupStart
        var screen = ChatScreen(
            store: store, ownAddress: "kaspa:qbenchown", timeZone: TimeZone(identifier: "UTC") ?? .current)
        screen.apply(.conversations([ConversationEntry(address: peer, name: "peer", preview: nil, lastActivity: 0)]))
        _ = screen.open(peer)
        _ = screen.render(width: width, height: height)

        var frames: [Double] = []
        var reads: [Double] = []
        var largest = 0
        var residentMax = residentMB()
        let residentStart = residentMax
        var residentTop = residentStart
        for key in [ScreenKey.pageUp, .pageDown] {
            var previous: [String] = []
            while true {
                let elapsed = clock.measure {
                    _ = screen.handle(key)
                    blackHole(screen.render(width: width, height: height))
                }
                frames.append(elapsed.milliseconds)
                let engine = screen.pane?.engine
                largest = max(largest, (engine?.items.count ?? 0) + (engine?.backlog.count ?? 0))
                if let cursor = engine?.oldestCursor {
                    let read = try clock.measure {
                        blackHole(try store.page(in: conversation, olderThan: cursor, limit: 50))
                    }
                    reads.append(read.milliseconds)
                }
                if frames.count % 200 == 0 { residentMax = max(residentMax, residentMB()) }
                let text = screen.render(width: width, height: height).text
                if text == previous { break }
                previous = text
            }
            if key == .pageUp { residentTop = residentMB() }
        }
        let residentEnd = residentMB()
        let frameP99 = percentile(frames, 0.99)
        let readP99 = percentile(reads, 0.99)
        return Result(
            messages: messages, width: width, height: height, setupSeconds: setup.milliseconds / 1000,
            frames: frames.count, frameP50Milliseconds: percentile(frames, 0.5), frameP99Milliseconds: frameP99,
            frameMaxMilliseconds: frames.max() ?? 0, pageReadP50Milliseconds: percentile(reads, 0.5),
            pageReadP99Milliseconds: readP99, p99Ratio: readP99 > 0 ? frameP99 / readP99 : 0,
            residentStartMB: residentStart, residentTopMB: residentTop, residentEndMB: residentEnd,
            residentMaxMB: max(residentMax, residentEnd), largestLoadedRows: largest)
    }

    static func makeStore(messages: Int, conversation: ConversationID, directory: URL) throws -> ChatHistoryStore {
        let store = try ChatHistoryStore(path: directory.appendingPathComponent("chat-history.sqlite").path)
        let start: UInt64 = 1_700_000_000_000
        var index = 0
        while index < messages {
            let batch = (index..<min(messages, index + 5_000)).map { row in
                let blockTime = start + UInt64(row) * 45_000
                let text =
                    row % 5 == 0
                    ? "message \(row): 漢字かな 😀 a longer line that wraps in the pane at eighty columns wide"
                    : "message \(row)"
                return StoredMessage(
                    id: MessageID(UUID()), conversation: conversation, txID: TxID("bench\(row)"),
                    blockTime: blockTime, timestamp: Int64(blockTime), status: .sent,
                    direction: row % 3 == 0 ? .outgoing : .incoming, kind: .text, body: Data(text.utf8))
            }
            try store.save(contentsOf: batch)
            index += batch.count
        }
        return store
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }

    /// Resident set size from `/proc/self/statm` (Linux); 0 elsewhere.
    static func residentMB() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
        return pages * 4096 / 1_048_576
    }

    public static func markdown(_ result: Result, machine: String) -> String {
        func ms(_ value: Double) -> String { rounded(value, places: 3) + " ms" }
        func mb(_ value: Double) -> String { rounded(value, places: 1) + " MB" }
        return """
            Terminal chat UI: \(result.messages) messages, \(result.width)×\(result.height), \(machine), \
            setup \(rounded(result.setupSeconds, places: 1)) s

            | measure | p50 | p99 | max |
            |---|---|---|---|
            | key press → frame (handle + render), \(result.frames) frames | \(ms(result.frameP50Milliseconds)) | \(ms(result.frameP99Milliseconds)) | \(ms(result.frameMaxMilliseconds)) |
            | baseline: one ChatHistory keyset page read (50 rows) | \(ms(result.pageReadP50Milliseconds)) | \(ms(result.pageReadP99Milliseconds)) | |

            Frame p99 / page read p99: \(formatRatio(result.p99Ratio)). Resident memory: \(mb(result.residentStartMB)) \
            at the bottom, \(mb(result.residentTopMB)) at the top of the history, \(mb(result.residentEndMB)) back at \
            the bottom, \(mb(result.residentMaxMB)) at most; at most \(result.largestLoadedRows) rows loaded.
            """
    }
}

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
