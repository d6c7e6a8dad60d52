public import Foundation
public import KaspaRPC
import TandemBasics

/// One WebSocket to one node: requests with small increasing ids, answers matched by id in
/// whatever order they come (kaspa-node.md §2), a time limit per call, and the notifications as
/// a stream. When the socket ends, every waiting call fails with ``KaspaNodeError/disconnected``
/// and ``notifications`` finishes.
///
/// What a node sends unasked never piles up (issue 50 item 2): a notification is kept only when
/// this connection subscribed to its kind, and at most ``notificationCapacity`` wait for the
/// reader. When the reader falls behind, the oldest are dropped (the newest win) and
/// ``takeDroppedNotifications()`` says so, so that the reader re-reads what they were about.
public actor KaspaNodeConnection {
    public nonisolated let url: URL
    /// Notifications of the subscribed kinds in arrival order, at most ``notificationCapacity``
    /// of them waiting; finishes when the connection ends.
    public nonisolated let notifications: AsyncStream<RPCNotification>
    /// The most notifications that wait for the reader.
    public nonisolated let notificationCapacity: Int
    private let notificationSink: AsyncStream<RPCNotification>.Continuation
    /// The notification kinds a `subscribe` call on this connection asked for.
    private var subscribedKinds: Set<NotificationKind> = []
    /// Notifications dropped since ``takeDroppedNotifications()`` last looked.
    private var droppedSinceTaken = 0
    /// Notifications dropped because nothing on this connection asked for their kind.
    public private(set) var unaskedNotifications = 0
    /// Notifications dropped because the reader fell behind.
    public private(set) var droppedNotifications = 0
    private let socket: any WebSocketConnection
    private let callTimeout: Duration
    private var calls: [UInt64: Call] = [:]
    private var nextID: UInt64 = 1
    private var endReason: String?
    private var reader: Task<Void, Never>?
    /// The deadlines of the calls in flight, earliest first (issue 49 item 4): one watchdog task
    /// per connection ends the calls whose time ran out, where each call once started a timer
    /// task of its own and a task group to race it.
    private var deadlines: [Deadline] = []
    private var watchdog: Task<Void, Never>?
    /// When the watchdog wakes next; nil while none is armed.
    private var watchdogWakes: ContinuousClock.Instant?
    /// Frames that were not JSON the spec describes (counted, otherwise ignored).
    public private(set) var malformedFrames = 0

    /// A call between its request and its answer. The answer may arrive before the caller starts
    /// waiting (the send suspends), so it is kept until then.
    private enum Call {
        case expected
        case waiting(CheckedContinuation<Data, any Error>)
        case arrived(Result<Data, KaspaNodeError>)
    }

    /// When call `id` times out, and what its timeout error names.
    private struct Deadline {
        var instant: ContinuousClock.Instant
        var id: UInt64
        var method: RPCMethod
        var limit: Duration
    }

    /// The kinds of notification a connection may subscribe to and keep.
    private enum NotificationKind {
        case utxosChanged, virtualDaaScoreChanged
    }

    private init(url: URL, socket: any WebSocketConnection, callTimeout: Duration, notificationCapacity: Int) {
        self.url = url
        self.socket = socket
        self.callTimeout = callTimeout
        self.notificationCapacity = max(notificationCapacity, 1)
        (notifications, notificationSink) = AsyncStream.makeStream(
            of: RPCNotification.self, bufferingPolicy: .bufferingNewest(self.notificationCapacity))
    }

    /// Opens a WebSocket to `url` and starts reading it at `placement`.
    public static func open(
        _ url: URL, transport: any WebSocketTransport, callTimeout: Duration = .seconds(10),
        notificationCapacity: Int = 64, readingOn placement: ReadingPlacement = .sharedPool
    ) async throws(KaspaNodeError) -> KaspaNodeConnection {
        let socket: any WebSocketConnection
        do { socket = try await transport.connect(to: url, timeout: callTimeout, receivingOn: placement) } catch {
            throw .unreachable(node: URLRedaction.redact(url), reason: Self.transportReason(error))
        }
        let connection = KaspaNodeConnection(
            url: url, socket: socket, callTimeout: callTimeout, notificationCapacity: notificationCapacity)
        await connection.startReading(at: placement)
        return connection
    }

    private var node: String { URLRedaction.redact(url) }

    /// The reader lives as long as the connection: ``close()`` cancels it, and it ends by itself
    /// when the socket does.
    private func startReading(at placement: ReadingPlacement) {
        let socket = socket
        reader = placement.startTask { [weak self] in
            var reason = "the node closed the connection"
            do {
                for try await text in socket.messages { await self?.receive(text) }
            } catch {
                reason = Self.transportReason(error)
            }
            await self?.end(reason)
        }
    }

    /// Whether a call waits for its answer.
    public var hasCallsInFlight: Bool { !calls.isEmpty }

    /// Calls `method` and reads its answer's params as `R`.
    public func call<R: Decodable & Sendable>(
        _ method: RPCMethod, _ params: some Encodable & Sendable = RPCEmpty(), as type: R.Type,
        timeout: Duration? = nil
    ) async throws(KaspaNodeError) -> R {
        if let endReason { throw .disconnected(node: node, reason: endReason) }
        // Kept from before the request leaves: the node may notify before it answers.
        if method == .subscribe, let scope = params as? RPCSubscription {
            switch scope {
            case .utxosChanged: subscribedKinds.insert(.utxosChanged)
            case .virtualDaaScoreChanged: subscribedKinds.insert(.virtualDaaScoreChanged)
            }
        }
        let id = nextID
        nextID &+= 1
        let text: String
        do { text = try RPCFrame.request(id: id, method: method, params: params) } catch {
            throw .malformedAnswer(node: node, method: method.rawValue, reason: error.description)
        }
        let limit = timeout ?? callTimeout
        calls[id] = .expected
        schedule(Deadline(instant: .now.advanced(by: limit), id: id, method: method, limit: limit))
        let frame: Data
        do {
            frame = try await withTaskCancellationHandler {
                try await answer(id, sending: text, method: method)
            } onCancel: {
                Task { await self.settle(id, .failure(.cancelled)) }
            }
        } catch let error as KaspaNodeError {
            unschedule(id)
            throw error
        } catch {
            unschedule(id)
            throw .disconnected(node: node, reason: String(describing: error))
        }
        unschedule(id)
        do { return try RPCFrame.params(R.self, from: frame) } catch {
            throw .malformedAnswer(node: node, method: method.rawValue, reason: error.description)
        }
    }

    // MARK: Time limits

    /// Keeps `deadline` in order and wakes the watchdog earlier when it is the first.
    private func schedule(_ deadline: Deadline) {
        var index = deadlines.endIndex
        while index > deadlines.startIndex, deadlines[index - 1].instant > deadline.instant { index -= 1 }
        deadlines.insert(deadline, at: index)
        if let wakes = watchdogWakes, wakes <= deadline.instant { return }
        armWatchdog()
    }

    /// Forgets the deadline of a call that ended. The watchdog stays armed: when it wakes for a
    /// call that ended, it only arms itself for the next deadline, so a steady stream of calls
    /// costs one wake per time limit, not one timer per call.
    private func unschedule(_ id: UInt64) {
        guard let index = deadlines.firstIndex(where: { $0.id == id }) else { return }
        deadlines.remove(at: index)
    }

    private func armWatchdog() {
        watchdog?.cancel()
        guard let first = deadlines.first?.instant, endReason == nil else {
            watchdog = nil
            watchdogWakes = nil
            return
        }
        watchdogWakes = first
        watchdog = Task { [weak self] in
            do { try await Task.sleep(until: first, clock: .continuous) } catch { return }
            await self?.expire()
        }
    }

    /// Ends every call whose deadline passed with a timeout, then sleeps until the next one.
    private func expire() {
        let now = ContinuousClock.now
        while let first = deadlines.first, first.instant <= now {
            deadlines.removeFirst()
            settle(
                first.id,
                .failure(.timeout(node: node, method: first.method.rawValue, seconds: Self.seconds(first.limit))))
        }
        watchdogWakes = nil
        armWatchdog()
    }

    /// Sends the request, then waits for what ``receive(_:)`` or ``settle(_:_:)`` puts in its place.
    private func answer(_ id: UInt64, sending text: String, method: RPCMethod) async throws -> Data {
        do { try await socket.send(text) } catch {
            settle(id, .failure(.disconnected(node: node, reason: String(describing: error))))
        }
        return try await withCheckedThrowingContinuation { continuation in
            switch calls[id] {
            case .arrived(let result):
                calls[id] = nil
                continuation.resume(with: result.mapError { $0 as any Error })
            case .expected, .waiting, nil:
                calls[id] = .waiting(continuation)
            }
        }
    }

    /// Ends call `id` with `result`, unless it already ended.
    private func settle(_ id: UInt64, _ result: Result<Data, KaspaNodeError>) {
        switch calls[id] {
        case .expected: calls[id] = .arrived(result)
        case .waiting(let continuation):
            calls[id] = nil
            continuation.resume(with: result.mapError { $0 as any Error })
        case .arrived, nil: break
        }
    }

    private func receive(_ text: String) {
        let inbound: RPCFrame.Inbound
        do { inbound = try RPCFrame.inbound(Data(text.utf8)) } catch {
            malformedFrames += 1
            return
        }
        switch inbound {
        case .response(let id, _, let frame): settle(id, .success(frame))
        case .error(let id, let method, let message):
            settle(id, .failure(.refused(node: node, method: method, message: message)))
        case .notification(let notification): keep(notification)
        }
    }

    /// Queues `notification` when its kind was subscribed; the newest win when the queue is full.
    private func keep(_ notification: RPCNotification) {
        let kind: NotificationKind
        switch notification {
        case .utxosChanged: kind = .utxosChanged
        case .virtualDaaScoreChanged: kind = .virtualDaaScoreChanged
        case .other:
            unaskedNotifications += 1
            return
        }
        guard subscribedKinds.contains(kind) else {
            unaskedNotifications += 1
            return
        }
        if case .dropped = notificationSink.yield(notification) {
            droppedNotifications += 1
            droppedSinceTaken += 1
        }
    }

    /// Whether notifications were dropped since the last call (the reader fell behind): what
    /// they said is to be read again from the node.
    public func takeDroppedNotifications() -> Bool {
        defer { droppedSinceTaken = 0 }
        return droppedSinceTaken > 0
    }

    private func end(_ reason: String) {
        guard endReason == nil else { return }
        endReason = reason
        for id in calls.keys { settle(id, .failure(.disconnected(node: node, reason: reason))) }
        deadlines = []
        watchdog?.cancel()
        watchdog = nil
        watchdogWakes = nil
        notificationSink.finish()
    }

    /// Why the connection ended, or nil while it is open.
    public var closedReason: String? { endReason }

    /// Closes the socket: waiting calls fail, ``notifications`` finishes.
    public func close(reason: String = "closed by the client") async {
        reader?.cancel()
        reader = nil
        end(reason)
        await socket.close()
    }

    /// A transport failure in a few words: what the networking stack describes at length
    /// (NIO's connection errors run to hundreds of characters) reduced to its cause.
    static func transportReason(_ error: any Error) -> String { NetworkFailureText.reason(error) }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
