import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTPTypes
import TandemBasics

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one client may hold of the server (issue 50 item 5): how long it may take to send a
/// request, and how many connections it may keep open.
public struct ConnectionLimits: Sendable, Equatable {
    /// The time a new connection has to deliver its first request head, and a request head's
    /// body its first bytes at the floor rate.
    public var headerTimeout: Duration
    /// The time a kept-alive connection may wait for its next request.
    public var idleTimeout: Duration
    /// The slowest a request body may arrive, in bytes per second, averaged from its head on
    /// and checked once ``headerTimeout`` has passed.
    public var bodyBytesPerSecond: Int
    /// Open connections (an event stream is one) per client address; behind a trusted proxy,
    /// per forwarded address.
    public var connectionsPerAddress: Int
    /// Open connections in all: below the process's file descriptor limit, so that a flood is
    /// answered 503 instead of running the server out of descriptors.
    public var totalConnections: Int

    public init(
        headerTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60), bodyBytesPerSecond: Int = 1_024,
        connectionsPerAddress: Int = 256, totalConnections: Int = ConnectionLimits.descriptorBoundConnections()
    ) {
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.bodyBytesPerSecond = bodyBytesPerSecond
        self.connectionsPerAddress = connectionsPerAddress
        self.totalConnections = totalConnections
    }

    /// For a load generator on loopback, whose many connections all come from one address: the
    /// default timeouts, no cap per address.
    public static let loadGenerator = ConnectionLimits(connectionsPerAddress: .max)

    /// The process's soft descriptor limit less a reserve for the database, logs and the node
    /// (at least 64 connections).
    public static func descriptorBoundConnections() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        // RLIM_INFINITY is the largest value: clamped, it is as good as no limit.
        let soft = min(Int(clamping: limit.rlim_cur), 1 << 20)
        return max(soft - 128, 64)
    }
}

/// The open connections of the whole server, by client address.
final class ConnectionLedger: Sendable {
    private struct Counts {
        var total = 0
        var byAddress: [String: Int] = [:]
    }

    let limits: ConnectionLimits
    private let counts = Locked(Counts())

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    /// Counts a connection of `address`; false (and nothing counted) when it is over a limit.
    func admit(_ address: String) -> Bool {
        counts.withLock { counts in
            let mine = counts.byAddress[address, default: 0]
            guard counts.total < limits.totalConnections, mine < limits.connectionsPerAddress else { return false }
            counts.total += 1
            counts.byAddress[address] = mine + 1
            return true
        }
    }

    func release(_ address: String) {
        counts.withLock { counts in
            counts.total -= 1
            let left = counts.byAddress[address, default: 1] - 1
            counts.byAddress[address] = left > 0 ? left : nil
        }
    }

    /// Open connections now (for tests and metrics).
    var open: Int { counts.withLock { $0.total } }
}

/// One connection's guard, after HTTP decoding: it closes a connection whose request head does
/// not arrive within ``ConnectionLimits/headerTimeout`` (a new connection) or
/// ``ConnectionLimits/idleTimeout`` (kept alive), or whose body arrives below the floor rate, and
/// answers 503 with `Retry-After` to a connection over its address's or the server's limit.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let ledger: ConnectionLedger
    private let proxies: TrustedProxies
    private var started = false
    /// The address this connection is counted under, once admitted.
    private var counted: String?
    /// Over a limit: the next request is answered 503 and the connection closed.
    private var refusing = false
    /// What is due next on this connection, and when; nil: nothing.
    private var due: (action: Due, at: NIODeadline)?
    /// The one timer, armed at `timerAt`, no later than `due`. A request moves `due` without
    /// touching the timer when the timer fires first: it re-arms itself for `due` then. Each
    /// request would otherwise schedule and cancel two tasks on the event loop (issue 49 item 6).
    private var timer: Scheduled<Void>?
    private var timerAt: NIODeadline?

    private enum Due {
        case close
        case bodyCheck
    }
    /// Requests whose response has not ended.
    private var inFlight = 0
    /// The body being read: since when, and how many bytes so far.
    private var body: (since: NIODeadline, bytes: Int)?

    init(ledger: ConnectionLedger, proxies: TrustedProxies) {
        self.ledger = ledger
        self.proxies = proxies
    }

    private var limits: ConnectionLimits { ledger.limits }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        arm(context, .close, after: limits.headerTimeout)
        // Behind a trusted proxy the client is named by the request: counted at its head.
        let peer = Self.address(of: context.channel)
        if !proxies.isTrusted(peer) { admit(peer ?? "?") }
    }

    private func admit(_ address: String) {
        guard counted == nil, !refusing else { return }
        if ledger.admit(address) { counted = address } else { refusing = true }
    }

    private func finish() {
        due = nil
        timer?.cancel()
        timer = nil
        timerAt = nil
        if let counted { ledger.release(counted) }
        counted = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            due = nil
            if counted == nil, !refusing {
                let forwarded = request.headerFields[values: .xForwardedFor]
                admit(proxies.clientAddress(peer: Self.address(of: context.channel), forwardedFor: forwarded) ?? "?")
            }
            guard !refusing else { return refuse(context) }
            inFlight += 1
            body = (.now(), 0)
            arm(context, .bodyCheck, after: limits.headerTimeout)
        case .body(let buffer):
            guard !refusing else { return }
            body?.bytes += buffer.readableBytes
        case .end:
            guard !refusing else { return }
            body = nil
            due = nil
            // Answered before its body ended (a 401 to an upload): idle from now on.
            if inFlight == 0 { arm(context, .close, after: limits.idleTimeout) }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            inFlight = max(inFlight - 1, 0)
            if inFlight == 0, body == nil { arm(context, .close, after: limits.idleTimeout) }
        }
        context.write(data, promise: promise)
    }

    /// 503 with `Retry-After`, and the connection closed: the client is over a limit.
    private func refuse(_ context: ChannelHandlerContext) {
        due = nil
        let response = HTTPResponse(
            status: .serviceUnavailable,
            headerFields: [.retryAfter: "1", .connection: "close", .contentLength: "0"])
        context.write(wrapOutboundOut(.head(response)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }

    /// Closes the connection when its body has averaged below the floor since its head; checked
    /// from ``ConnectionLimits/headerTimeout`` on, every second.
    private func checkBody(_ context: ChannelHandlerContext) {
        guard let body else { return }
        let elapsed = Double((NIODeadline.now() - body.since).nanoseconds) / 1e9
        if Double(body.bytes) < Double(limits.bodyBytesPerSecond) * elapsed {
            context.close(promise: nil)
        } else {
            arm(context, .bodyCheck, after: .seconds(1))
        }
    }

    /// Makes `action` due after `delay`, replacing what was due. The timer is moved only when it
    /// would fire after the new time.
    private func arm(_ context: ChannelHandlerContext, _ action: Due, after delay: Duration) {
        let at = NIODeadline.now() + TimeAmount(delay)
        due = (action, at)
        if let timerAt, timerAt <= at { return }
        startTimer(context, at: at)
    }

    private func startTimer(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        timer?.cancel()
        timerAt = deadline
        let loop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        timer = loop.scheduleTask(deadline: deadline) {
            let (handler, context) = bound.value
            handler.timerFired(context, armedAt: deadline)
        }
    }

    /// Runs what is due, or re-arms for it when a request moved it later.
    private func timerFired(_ context: ChannelHandlerContext, armedAt deadline: NIODeadline) {
        // A timer cancelled in the tick it was due may still run once: not the one armed now.
        guard timerAt == deadline else { return }
        timer = nil
        timerAt = nil
        guard let due else { return }
        guard NIODeadline.now() >= due.at else { return startTimer(context, at: due.at) }
        self.due = nil
        switch due.action {
        case .close: context.close(promise: nil)
        case .bodyCheck: checkBody(context)
        }
    }

    private static func address(of channel: any Channel) -> String? {
        channel.remoteAddress?.ipAddress
    }
}
