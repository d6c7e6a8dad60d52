public import Foundation
public import KaspaCrypto
public import KaspaRPC
import TandemBasics

/// A profile's link to the Kaspa network (issue 24 item 1): one node at a time out of several,
/// each checked before use (network id, synced, UTXO index, ping), failed over with backoff, and
/// after every (re)connect re-subscribed, announced by ``KaspaNodeEvent/connected(node:info:)``
/// so that consumers re-read what they keep (the node replays nothing, kaspa-node.md §2, §8).
public actor KaspaNodeClient {
    public nonisolated let configuration: KaspaNodeConfiguration
    /// Connections, notifications and liveness, for the one consumer that follows them; at most
    /// ``KaspaNodeConfiguration/eventCapacity`` wait (``KaspaNodeEvents``).
    public nonisolated let events: KaspaNodeEvents
    private let eventSink: AsyncStream<KaspaNodeEvent>.Continuation
    private let transport: any WebSocketTransport
    private let resolve: (@Sendable (URL) async throws -> URL)?
    private var failover: NodeFailover
    private var connection: KaspaNodeConnection?
    /// The connected node's `getServerInfo`, its DAA score kept current by notifications.
    public private(set) var serverInfo: ServerInfoSnapshot?
    private var watchedAddresses: [KaspaAddress] = []
    /// The watched addresses the current connection has subscribed.
    private var subscribedAddresses: Set<KaspaAddress> = []
    private var followsDaaScore = false
    private var connecting: Task<ServerInfoSnapshot, any Error>?
    private let reading: ReadingPlacement

    /// `resolve` turns a Resolver URL into a node URL (an HTTP GET, ``KaspaResolver``); needed only
    /// when an endpoint is a resolver. `reading` places each connection's reader: the frames' first
    /// decoding happens there (the server's chain ingest reads large pages on its lower-priority
    /// thread).
    public init(
        configuration: KaspaNodeConfiguration, transport: any WebSocketTransport,
        resolve: (@Sendable (URL) async throws -> URL)? = nil, reading: ReadingPlacement = .sharedPool
    ) {
        self.configuration = configuration
        self.transport = transport
        self.resolve = resolve
        self.reading = reading
        failover = NodeFailover(endpoints: configuration.endpoints, backoff: configuration.backoff)
        let (stream, sink) = AsyncStream.makeStream(
            of: KaspaNodeEvent.self, bufferingPolicy: .bufferingNewest(max(configuration.eventCapacity, 1)))
        events = KaspaNodeEvents(stream: stream, dropped: KaspaNodeEvents.DropMark())
        eventSink = sink
    }

    /// Queues `event` for the consumer; when the queue is full the oldest goes, and the consumer
    /// reads ``KaspaNodeEvent/resync`` next.
    private func emit(_ event: KaspaNodeEvent) {
        if case .dropped = eventSink.yield(event) { events.dropped.mark() }
    }

    /// The node in use, if connected.
    public var node: URL? { connection?.url }

    // MARK: Connecting

    /// Connects to the first usable node, starting with the current one and trying each once.
    /// Returns at once when connected already; callers that ask while a connect is under way
    /// wait for that one instead of opening a second socket. Throws
    /// ``KaspaNodeError/noUsableNode(_:)`` naming every node tried and why it was passed over.
    @discardableResult
    public func connect() async throws(KaspaNodeError) -> ServerInfoSnapshot {
        if let connection, await connection.closedReason == nil, let serverInfo { return serverInfo }
        if let connecting { return try await Self.value(of: connecting) }
        // Awaited right here and by every caller that arrives meanwhile; it never outlives them.
        let attempt = Task { try await self.connectOnce() }
        connecting = attempt
        defer { connecting = nil }
        return try await Self.value(of: attempt)
    }

    private static func value(of task: Task<ServerInfoSnapshot, any Error>) async throws(KaspaNodeError)
        -> ServerInfoSnapshot
    {
        do { return try await task.value } catch let error as KaspaNodeError { throw error } catch {
            throw .cancelled
        }
    }

    private func connectOnce() async throws(KaspaNodeError) -> ServerInfoSnapshot {
        var attempts: [NodeAttempt] = []
        for _ in 0..<failover.endpoints.count {
            guard let endpoint = failover.current else { break }
            do {
                let (opened, info) = try await open(endpoint)
                connection = opened
                let snapshot = ServerInfoSnapshot(node: opened.url, info: info)
                serverInfo = snapshot
                failover.succeeded()
                // Addresses watched while the socket was opening are subscribed now.
                let missed = watchedAddresses.filter { !subscribedAddresses.contains($0) }
                if !missed.isEmpty {
                    _ = try? await opened.call(
                        .subscribe, RPCSubscription.utxosChanged(addresses: missed), as: RPCListenerID.self)
                    subscribedAddresses.formUnion(missed)
                }
                emit(.connected(node: opened.url, info: info))
                return snapshot
            } catch {
                attempts.append(NodeAttempt(node: endpoint.description, reason: Self.reason(error)))
                _ = failover.failed()
            }
        }
        throw .noUsableNode(attempts)
    }

    /// Opens `endpoint`, checks it (kaspa-node.md §4 "getServerInfo", then a ping) and restores
    /// the subscriptions on it.
    private func open(_ endpoint: NodeEndpoint) async throws -> (KaspaNodeConnection, RPCServerInfo) {
        let url: URL
        switch endpoint {
        case .node(let node): url = node
        case .resolver(let resolver):
            guard let resolve else {
                throw KaspaNodeError.unreachable(node: URLRedaction.redact(resolver), reason: "no resolver client")
            }
            do { url = try await resolve(resolver) } catch let error as KaspaNodeError { throw error } catch {
                throw KaspaNodeError.unreachable(node: URLRedaction.redact(resolver), reason: String(describing: error))
            }
        }
        let opened = try await KaspaNodeConnection.open(
            url, transport: transport, callTimeout: configuration.callTimeout,
            notificationCapacity: configuration.eventCapacity, readingOn: reading)
        do {
            let info = try await opened.call(.getServerInfo, as: RPCServerInfo.self)
            if let failure = configuration.check(info) {
                throw KaspaNodeError.unusable(node: URLRedaction.redact(url), reason: failure)
            }
            _ = try await opened.call(.ping, as: RPCEmpty.self)
            let addresses = watchedAddresses
            subscribedAddresses = []
            if !addresses.isEmpty {
                _ = try await opened.call(
                    .subscribe, RPCSubscription.utxosChanged(addresses: addresses), as: RPCListenerID.self)
                subscribedAddresses = Set(addresses)
            }
            if followsDaaScore {
                _ = try await opened.call(.subscribe, RPCSubscription.virtualDaaScoreChanged, as: RPCListenerID.self)
            }
            return (opened, info)
        } catch {
            await opened.close(reason: "failed its check")
            throw error
        }
    }

    /// Closes the connection; the next call or ``connect()`` opens one again.
    public func disconnect() async {
        guard let connection else { return }
        self.connection = nil
        serverInfo = nil
        await connection.close()
    }

    /// Closes the connection and moves on to the next node: the caller found the one in use
    /// unfit for its purpose (a chain index behind the node, say), though it answers.
    public func abandonCurrentNode() async {
        await disconnect()
        _ = failover.failed()
    }

    /// Drops `dropped` if it is still the connection in use; returns whether it was.
    @discardableResult
    private func drop(_ dropped: KaspaNodeConnection, reason: String) async -> Bool {
        guard connection === dropped else {
            await dropped.close(reason: reason)
            return false
        }
        connection = nil
        serverInfo = nil
        subscribedAddresses = []
        await dropped.close(reason: reason)
        emit(.disconnected(node: dropped.url, reason: reason))
        return true
    }

    // MARK: Calls

    /// Calls `method` on the current node, connecting first when needed. A transport failure
    /// (closed socket, no answer in time) moves to the next node and tries once more there; a
    /// node's refusal is thrown as it is.
    public func call<R: Decodable & Sendable>(
        _ method: RPCMethod, _ params: some Encodable & Sendable = RPCEmpty(), as type: R.Type,
        timeout: Duration? = nil
    ) async throws(KaspaNodeError) -> R {
        try await connect()
        guard let first = connection else { throw .disconnected(node: "?", reason: "the connection closed at once") }
        do { return try await first.call(method, params, as: R.self, timeout: timeout) } catch {
            guard error.isTransportFailure else { throw error }
            if await drop(first, reason: error.description) { _ = failover.failed() }
        }
        try await connect()
        guard let second = connection else {
            throw .disconnected(node: "?", reason: "the connection closed at once")
        }
        return try await second.call(method, params, as: R.self, timeout: timeout)
    }

    /// One chain page from `startHash` at `level`, with the time a page spanning at most
    /// `blocks` DAA steps gets (``KaspaNodeConfiguration/pageTimeout(spanning:)``; the largest
    /// page's when not known).
    public func virtualChain(
        from startHash: [UInt8], level: RPCDataVerbosityLevel = .high, spanning blocks: UInt64? = nil
    ) async throws(KaspaNodeError) -> RPCVirtualChainFromBlockResponse {
        try await call(
            .getVirtualChainFromBlockV2,
            RPCVirtualChainFromBlockRequest(startHash: startHash, dataVerbosityLevel: level),
            as: RPCVirtualChainFromBlockResponse.self, timeout: configuration.pageTimeout(spanning: blocks))
    }

    /// The chain blocks of the page from `startHash`, read at level None (kaspa-node.md §11): only
    /// the hashes are decoded, as a real node's None transactions have `null` members.
    public func virtualChainHashes(from startHash: [UInt8]) async throws(KaspaNodeError) -> RPCVirtualChainHashes {
        try await call(
            .getVirtualChainFromBlockV2,
            RPCVirtualChainFromBlockRequest(startHash: startHash, dataVerbosityLevel: RPCDataVerbosityLevel.none),
            as: RPCVirtualChainHashes.self, timeout: configuration.pageTimeout)
    }

    // MARK: Subscriptions

    /// Follows UtxosChanged for `addresses` from now on, on this node and every later one.
    public func watch(_ addresses: [KaspaAddress]) async throws(KaspaNodeError) {
        let new = addresses.filter { !watchedAddresses.contains($0) }
        watchedAddresses += new
        // Subscribed on the connection in use; a connect under way subscribes what it missed.
        guard let connection else { return }
        let unsubscribed = watchedAddresses.filter { !subscribedAddresses.contains($0) }
        guard !unsubscribed.isEmpty else { return }
        _ = try await connection.call(
            .subscribe, RPCSubscription.utxosChanged(addresses: unsubscribed), as: RPCListenerID.self)
        subscribedAddresses.formUnion(unsubscribed)
    }

    /// Stops following `addresses`.
    public func unwatch(_ addresses: [KaspaAddress]) async throws(KaspaNodeError) {
        let gone = addresses.filter { watchedAddresses.contains($0) }
        guard !gone.isEmpty else { return }
        watchedAddresses.removeAll { gone.contains($0) }
        subscribedAddresses.subtract(gone)
        guard let connection else { return }
        // unsubscribe answers {} (kaspa-node.md §11), not a listener id.
        _ = try await connection.call(.unsubscribe, RPCSubscription.utxosChanged(addresses: gone), as: RPCEmpty.self)
    }

    /// The addresses followed now.
    public var watched: [KaspaAddress] { watchedAddresses }

    /// Follows VirtualDaaScoreChanged (the liveness tick, and coinbase maturity).
    public func followDaaScore() async throws(KaspaNodeError) {
        guard !followsDaaScore else { return }
        followsDaaScore = true
        guard let connection else { return }
        _ = try await connection.call(.subscribe, RPCSubscription.virtualDaaScoreChanged, as: RPCListenerID.self)
    }

    // MARK: Staying connected

    /// Keeps a node connected until cancelled: notifications become ``events``; a ping every
    /// ``KaspaNodeConfiguration/pingInterval`` detects a stalled node; a lost node is replaced
    /// by the next after the backoff, re-subscribed and announced.
    public func run() async {
        while !Task.isCancelled {
            do { try await connect() } catch {
                await pause(failover.backoff.delay(afterFailures: max(failover.consecutiveFailures, 1)))
                continue
            }
            guard let current = connection else { continue }
            let reason = await follow(current)
            if Task.isCancelled { break }
            // A call may have failed over already: then the node in use is another, and fine.
            if await drop(current, reason: reason) { await pause(failover.failed()) }
        }
    }

    private func pause(_ delay: Duration) async {
        do { try await Task.sleep(for: delay) } catch { return }
    }

    /// Forwards `current`'s notifications until it ends; returns why it ended.
    private func follow(_ current: KaspaNodeConnection) async -> String {
        let interval = configuration.pingInterval
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await notification in current.notifications {
                    // The connection dropped some: what they said is re-read.
                    if await current.takeDroppedNotifications() { await self.emit(.resync) }
                    await self.forward(notification)
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    do { try await Task.sleep(for: interval) } catch { return }
                    // A node answers one request at a time, in order (kaspa-node.md §11): a ping
                    // behind a large page would wait for it and time out. A call in flight has
                    // its own deadline and watches the node meanwhile.
                    guard await !current.hasCallsInFlight else { continue }
                    do { _ = try await current.call(.ping, as: RPCEmpty.self) } catch {
                        await current.close(reason: "ping failed: \(error)")
                        return
                    }
                }
            }
            await group.next()
            group.cancelAll()
        }
        return await current.closedReason ?? "stopped"
    }

    private func forward(_ notification: RPCNotification) {
        switch notification {
        case .utxosChanged(let change): emit(.utxosChanged(change))
        case .virtualDaaScoreChanged(let tick):
            serverInfo?.virtualDaaScore = tick.virtualDaaScore
            emit(.virtualDaaScoreChanged(tick.virtualDaaScore))
        case .other: break
        }
    }

    /// Ends ``events``: the consumer's loop finishes.
    public func finishEvents() { eventSink.finish() }

    static func reason(_ error: any Error) -> String {
        switch error {
        case KaspaNodeError.unusable(_, let failure): failure.description
        case KaspaNodeError.unreachable(_, let reason): "unreachable (\(reason))"
        case let error as KaspaNodeError: error.description
        default: String(describing: error)
        }
    }
}
