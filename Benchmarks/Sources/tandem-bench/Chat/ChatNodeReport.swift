import BenchSupport
import MicroBenchmarks

/// What `tandem-bench chat-node` prints: the figure in each pacing, its same-run baselines and
/// where the time went. Times in milliseconds for whole deliveries, microseconds for their parts.
struct ChatNodeReport: Encodable {
    struct Percentiles: Encodable {
        var p50: Double
        var p90: Double
        var p99: Double
        var max: Double

        /// Nearest rank, of `seconds`, in milliseconds.
        init(_ seconds: [Double]) {
            let sorted = seconds.sorted()
            func rank(_ fraction: Double) -> Double {
                guard !sorted.isEmpty else { return 0 }
                let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
                return sorted[Swift.min(Swift.max(index, 0), sorted.count - 1)] * 1e3
            }
            p50 = rank(0.5)
            p90 = rank(0.9)
            p99 = rank(0.99)
            max = (sorted.last ?? 0) * 1e3
        }
    }

    struct Segment: Encodable {
        var name: String
        var medianMicroseconds: Double
        var p90Microseconds: Double
        var p99Microseconds: Double
        var meanMicroseconds: Double
    }

    /// The figures of the messages of one pacing.
    struct Pacing: Encodable {
        var pacing: ChatNodeBenchmarks.Pacing
        var messages: Int
        /// The figure: the node's UtxosChanged frame ready → the message out of `listen()`.
        var notificationToHistory: Percentiles
        /// `mine()` called → the UtxosChanged frame ready (the simulated node's side).
        var blockToNotification: Percentiles
        /// `mine()` called → the message out of `listen()`.
        var blockToHistory: Percentiles
        var goalMet: Bool
        /// The figure's percentiles ÷ the open + insert median.
        var ratioP50: Double
        var ratioP99: Double
        /// The figure's p50 ÷ the ping median.
        var pingRatioP50: Double
        var segments: [Segment]
        var callsPerMessage: [String: Double]
        var resubscriptions: Int
        /// Every message's notification → history time, in order.
        var samplesMilliseconds: [Double]
    }

    /// Conversations in the receiver's routing table and contacts (the sender's included).
    var conversations: Int
    /// Addresses the receiver's live session subscribes: every contact's and its own.
    var watchedAddresses: Int
    var historyRows: Int
    var fixtureSeconds: Double
    var warmUp: Int
    var goalMilliseconds: Double
    var pacings: [Pacing]
    /// Median of one `KasiaCipher.open` + one insert into the receiver's history.
    var baselineMicroseconds: Double
    /// Median of one `ping` round trip to the same node.
    var pingMicroseconds: Double
    /// Idle pacing: how long the receiver was still busy with the previous message after the
    /// send and the baseline samples.
    var receiverBusy: Percentiles
    var steps: [ChatNodeSteps.Step]

    init(
        configuration: ChatNodeBenchmarks.Configuration, fixture: ChatNodeFixture.Summary,
        paths: [(ChatNodeBenchmarks.Pacing, ChatNodePath)], steps: [ChatNodeSteps.Step], baseline: [Double],
        ping: [Double], receiverBusy: [Double]
    ) {
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        }
        let goal = 50.0
        let baselineMicroseconds = median(baseline) * 1e6
        let pingMicroseconds = median(ping) * 1e6
        conversations = configuration.conversations
        watchedAddresses = configuration.conversations + 1
        historyRows = fixture.historyRows
        fixtureSeconds = fixture.seconds
        warmUp = configuration.warmUp
        goalMilliseconds = goal
        self.baselineMicroseconds = baselineMicroseconds
        self.pingMicroseconds = pingMicroseconds
        self.receiverBusy = Percentiles(receiverBusy)
        self.steps = steps
        pacings = paths.map { pacing, path in
            let figure = Percentiles(path.notificationToHistory)
            let count = path.notificationToHistory.count
            return Pacing(
                pacing: pacing, messages: count, notificationToHistory: figure,
                blockToNotification: Percentiles(path.blockToNotification),
                blockToHistory: Percentiles(path.blockToHistory), goalMet: figure.p99 < goal,
                ratioP50: figure.p50 * 1e3 / baselineMicroseconds, ratioP99: figure.p99 * 1e3 / baselineMicroseconds,
                pingRatioP50: figure.p50 * 1e3 / pingMicroseconds,
                segments: path.segments.map { segment in
                    let percentiles = Percentiles(segment.seconds)
                    return Segment(
                        name: segment.name, medianMicroseconds: percentiles.p50 * 1e3,
                        p90Microseconds: percentiles.p90 * 1e3, p99Microseconds: percentiles.p99 * 1e3,
                        meanMicroseconds: segment.seconds.reduce(0, +) / Double(max(segment.seconds.count, 1)) * 1e6)
                },
                callsPerMessage: path.calls.mapValues { Double($0) / Double(max(count, 1)) },
                resubscriptions: path.resubscriptions,
                samplesMilliseconds: path.notificationToHistory.map { $0 * 1e3 })
        }
    }
}
