import BenchSupport
import KaspaCrypto
import KaspaRPC
import KaspaSimNode
import MicroBenchmarks

/// Each measured message's way from the node's notification to the receiver's history, read from
/// the node's frame log: the `UtxosChanged` frame of the receiver's live connection that carries
/// the sender's change, then every request that connection made until the message came out of
/// `listen()`. Between two frames the time is the client's (reading, deciding, storing) or the
/// node's (answering); the segments add up to the whole.
struct ChatNodePath {
    /// One stretch of a delivery, named after what it covers.
    struct Segment {
        var name: String
        /// Per message, in seconds (0 where a message had no such stretch).
        var seconds: [Double]
    }

    /// mine() called → the notification was ready to write, per message (the node's side).
    var blockToNotification: [Double] = []
    /// The notification → the message out of listen(), per message: the figure.
    var notificationToHistory: [Double] = []
    /// mine() called → the message out of listen().
    var blockToHistory: [Double] = []
    /// In the order first seen.
    var segments: [Segment] = []
    /// Requests per message by method, summed over the messages.
    var calls: [String: Int] = [:]
    /// `subscribe` requests on any connection while messages were measured: a live session that
    /// started again (the watched set changed, or a connection dropped).
    var resubscriptions = 0
    /// The last message's frames, for ``ChatNodeSteps``.
    var lastFrames: Frames

    /// The frames of one delivery that the client read.
    struct Frames {
        var notification: String
        /// Answers to the requests, in order, with their methods.
        var answers: [(method: String, frame: String)]
        var txID: String
    }

    init(deliveries: [ChatNodeBenchmarks.Delivery], frames: [NodeFrameEvent], sender: KaspaAddress) throws {
        guard let first = deliveries.first, let last = deliveries.last else {
            throw CLIError("chat-node bench: no message was measured")
        }
        var callsByConnection: [UInt64: [NodeCall]] = [:]
        var names: [String] = []
        var stretches: [[String: Double]] = []
        var lastFrames: Frames?
        for delivery in deliveries {
            let notifications = frames.utxosChanged(of: sender, from: delivery.mining, to: delivery.delivered)
            guard notifications.count == 1, let notification = notifications.first else {
                throw CLIError(
                    "chat-node bench: \(notifications.count) UtxosChanged frames carried the sender's change of "
                        + "transaction \(delivery.txID) (expected the receiver's live connection's one)")
            }
            let connection = notification.connection
            if callsByConnection[connection] == nil { callsByConnection[connection] = frames.calls(on: connection) }
            let calls = (callsByConnection[connection] ?? []).filter {
                $0.read >= notification.instant && $0.answered <= delivery.delivered
            }
            blockToNotification.append((notification.instant - delivery.mining).nanoseconds / 1e9)
            notificationToHistory.append((delivery.delivered - notification.instant).nanoseconds / 1e9)
            blockToHistory.append((delivery.delivered - delivery.mining).nanoseconds / 1e9)

            var stretch: [String: Double] = [:]
            func add(_ name: String, _ from: ContinuousClock.Instant, _ to: ContinuousClock.Instant) {
                if !names.contains(name) { names.append(name) }
                stretch[name, default: 0] += (to - from).nanoseconds / 1e9
            }
            var previous = notification.instant
            for call in calls {
                add("client, then asks \(call.method)", previous, call.read)
                add("node answers \(call.method)", call.read, call.answered)
                self.calls[call.method, default: 0] += 1
                previous = call.answered
            }
            add("client, from the last answer until listen() yields the stored message", previous, delivery.delivered)
            stretches.append(stretch)
            lastFrames = Frames(
                notification: notification.frame, answers: calls.map { ($0.method, $0.answer) }, txID: delivery.txID)
        }
        segments = names.map { name in Segment(name: name, seconds: stretches.map { $0[name] ?? 0 }) }
        resubscriptions =
            frames.filter { event in
                guard case .request(let method) = event.kind, method == RPCMethod.subscribe.rawValue else {
                    return false
                }
                return event.instant >= first.mining && event.instant <= last.delivered
            }.count
        guard let lastFrames else { throw CLIError("chat-node bench: no message was measured") }
        self.lastFrames = lastFrames
    }
}
