import ChatHistory
import ChatTimeline
import Contacts
import Foundation
import Hummingbird
import KaspaCrypto
import ServiceLifecycle
import TandemBasics
import TandemMessaging

/// The live updates of `tandem app` (issue 47 item 2): one follower of the messenger
/// (``Messenger/updates(heartbeat:longestWait:)``) fanned out to every open page as server-sent
/// events on `GET /api/events`.
///
/// Events, each one `event:` name and one JSON `data:` line:
/// - `message`: `{"message": row, "live": bool, "notify": bool, "at": ms}`: a row arrived or changed
///   (sent, failed, reacted to, verified); the page places it by its cursor and id. `notify` is
///   set for a new incoming row from an unmuted contact.
/// - `conversation`: `{"address": …, "conversation": line}`: one line of the list changed, as
///   `GET /api/conversations` would show it, or `null` when it left the list.
/// - `connection`: `{"state": "online" | "reconnecting", "reason": text}`.
/// - `notice`: `{"text": …}`, one line for the status bar.
///
/// A page that reads too slowly to keep 1,000 events queued loses its stream; its browser
/// reconnects, and the page reloads what it shows, so nothing is silently skipped.
final class ChatAppEvents: Sendable {
    struct Event: Sendable {
        let name: String
        let data: Data

        /// One server-sent event: `data` is one line (JSON escapes every newline).
        var frame: String { "event: \(name)\ndata: \(String(decoding: data, as: UTF8.self))\n\n" }
    }

    /// Nil once the app shuts down.
    private let subscribers = Locked<[UUID: AsyncStream<Event>.Continuation]?>([:])
    /// The last connection state said, repeated to each new page.
    private let connection = Locked<Event?>(nil)
    let messenger: Messenger
    /// The ids of the rows lately published as new arrivals, oldest first: the live stream and
    /// the heartbeat's sync may both report a row, and a page should count and notify it once.
    private let arrivals = Locked<(order: [MessageID], seen: Set<MessageID>)>(([], []))
    static let arrivalMemory = 4_096

    init(messenger: Messenger) { self.messenger = messenger }

    /// A new page's stream of events, starting with the connection state if one is known; a
    /// finished one once the app shuts down.
    func subscribe(id: UUID = UUID()) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(1_000))
        continuation.onTermination = { [weak self] _ in _ = self?.subscribers.withLock { $0?.removeValue(forKey: id) } }
        let open = subscribers.withLock { subscribers in
            guard subscribers != nil else { return false }
            subscribers?[id] = continuation
            return true
        }
        guard open else {
            continuation.finish()
            return stream
        }
        if let state = connection.withLock({ $0 }) { continuation.yield(state) }
        return stream
    }

    /// Ends the stream of the page `id`.
    func end(_ id: UUID) {
        subscribers.withLock { $0?.removeValue(forKey: id) }?.finish()
    }

    /// Ends every page's stream, and any opened later: the app is shutting down, and a response
    /// still streaming would hold the server open.
    func finishAll() {
        let open = subscribers.withLock { subscribers in
            defer { subscribers = nil }
            return subscribers.map { Array($0.values) } ?? []
        }
        for continuation in open { continuation.finish() }
    }

    var subscriberCount: Int { subscribers.withLock { $0?.count ?? 0 } }

    /// Sends `event` to every page; a page whose queue is full is cut off (it reconnects and
    /// reloads).
    func publish(_ name: String, _ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return }
        let event = Event(name: name, data: data)
        if name == "connection" {
            // Said when it changes, not at every heartbeat.
            let changed = connection.withLock { last in
                defer { last = event }
                return last?.data != data
            }
            guard changed else { return }
        }
        for continuation in subscribers.withLock({ $0.map { Array($0.values) } ?? [] }) {
            if case .dropped = continuation.yield(event) { continuation.finish() }
        }
    }

    /// A stored row, as it is now, to every page.
    func publish(row: StoredMessage, live: Bool, notify: Bool = false) {
        let now = Int64((Date().timeIntervalSince1970 * 1_000).rounded())
        publish("message", MessageEvent(message: ChatAppJSON.Message(row), live: live, notify: notify, at: now))
    }

    /// The line of `peer`'s conversation, fresh, to every page (`null` once it left the list).
    func publishConversation(_ peer: KaspaAddress) async {
        let summary: ConversationSummary?
        do { summary = try await messenger.conversation(with: peer) } catch { return }
        publish(
            "conversation",
            ConversationEvent(address: peer.description, conversation: summary.map(ChatAppJSON.Conversation.init)))
    }

    func notice(_ text: String) { publish("notice", ["text": text]) }

    /// Asks for `peer`'s line to be sent again: the lines asked for while others are being read
    /// are read once each afterwards, however often they were asked (``run(keepAlive:)`` reads
    /// them).
    func conversationChanged(_ peer: KaspaAddress) {
        changedPeers.withLock { _ = $0.insert(peer) }
        listChanges.continuation.yield()
    }

    private let changedPeers = Locked<Set<KaspaAddress>>([])
    private let listChanges = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))

    /// Follows the messenger until cancelled (the app's shutdown), with a comment line to every
    /// page each `keepAlive`, so a page whose connection died is noticed and dropped.
    func run(keepAlive: Duration = .seconds(15)) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in self.listChanges.stream {
                    let peers = self.changedPeers.withLock { peers in
                        defer { peers = [] }
                        return peers
                    }
                    for peer in peers { await self.publishConversation(peer) }
                }
            }
            group.addTask {
                while (try? await Task.sleep(for: keepAlive)) != nil { self.publishComment() }
            }
            group.addTask {
                for await update in self.messenger.updates() { await self.apply(update) }
            }
            await group.next()
            group.cancelAll()
        }
    }

    private func publishComment() {
        let ping = Event(name: "ping", data: Data("{}".utf8))
        for continuation in subscribers.withLock({ $0.map { Array($0.values) } ?? [] }) { continuation.yield(ping) }
    }

    func apply(_ update: MessengerUpdate) async {
        switch update {
        case .online:
            publish("connection", ConnectionEvent(state: "online", reason: nil))
        case .reconnecting(let reason):
            publish("connection", ConnectionEvent(state: "reconnecting", reason: reason))
        case .arrived(let message):
            // The row first, its conversation's line after, read once for a burst of arrivals.
            guard let id = message.id, let row = try? await messenger.message(id) else {
                conversationChanged(message.sender)
                return
            }
            conversationChanged((try? KaspaAddress(row.conversation.rawValue)) ?? message.sender)
            switch message.kind {
            case .reaction, .paymentVerified:
                // The target row again: redrawn in place, not a new arrival.
                publish(row: row, live: false)
            case .text, .payment, .handshake, .broadcast:
                guard firstArrival(row.id) else {
                    publish(row: row, live: false)
                    return
                }
                let muted = (try? await messenger.contact(message.sender))?.notificationsMuted ?? false
                publish(row: row, live: true, notify: row.direction == .incoming && !muted)
            }
        }
    }

    /// Whether `id` is new among the lately arrived rows; remembers it.
    func firstArrival(_ id: MessageID) -> Bool {
        arrivals.withLock { arrivals in
            guard arrivals.seen.insert(id).inserted else { return false }
            arrivals.order.append(id)
            if arrivals.order.count > Self.arrivalMemory {
                arrivals.seen.remove(arrivals.order.removeFirst())
            }
            return true
        }
    }

    struct MessageEvent: Encodable {
        let message: ChatAppJSON.Message
        let live: Bool
        let notify: Bool
        /// Milliseconds since 1970 when this process sent the event (the arrival latency's start
        /// in `scripts/bench-chat-app`).
        let at: Int64
    }

    struct ConversationEvent: Encodable {
        let address: String
        /// Encoded as `null` when the conversation left the list.
        let conversation: ChatAppJSON.Conversation?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(address, forKey: .address)
            try container.encode(conversation, forKey: .conversation)
        }

        enum CodingKeys: String, CodingKey { case address, conversation }
    }

    struct ConnectionEvent: Encodable {
        let state: String
        let reason: String?
    }

    /// The `GET /api/events` answer: the stream of this page's events until it leaves or the app
    /// shuts down.
    func response() -> Response {
        let id = UUID()
        let stream = subscribe(id: id)
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
                .xContentTypeOptions: "nosniff",
            ],
            body: ResponseBody { [self] writer in
                // The server's shutdown waits for every response: this one ends with it.
                try await withGracefulShutdownHandler {
                    try await writer.write(ByteBuffer(string: ": connected\n\n"))
                    for await event in stream {
                        let frame = event.name == "ping" ? ": ping\n\n" : event.frame
                        try await writer.write(ByteBuffer(string: frame))
                    }
                } onGracefulShutdown: {
                    self.end(id)
                }
                try await writer.finish(nil)
            })
    }
}
