import ChatTimeline
public import Foundation
public import KaspaCrypto
public import KaspaNode
import KaspaRPC
import KaspaTransaction
import SecretFiles
import TandemAPI
public import TandemAccounts
import TandemBasics
public import TandemProfile
public import TandemWallet

/// The Kaspa network as a ``MessageTransport`` (issue 24 item 3; kasia-protocol §7, §12;
/// kaspa-node.md §5, §8): payloads go out as transactions from the profile's ``KaspaWallet`` —
/// a handshake pays 0.2 KAS to the peer, messages and self-stashes are self-spends — and rows
/// come from the node: the transactions the virtual chain accepted since a saved cursor
/// (`getVirtualChainFromBlockV2` at level High: payload and first-input sender), and contacts'
/// unaccepted ones (`getMempoolEntriesByAddresses`, `sending`). History pages come from a
/// kasia-indexer when the profile names one.
///
/// The live rows follow one `UtxosChanged` subscription on our address and every contact's, on a
/// node connection of their own; each notification, and each (re)connect, walks the chain from
/// where that session stands, so a dropped connection loses nothing. The saved cursor moves only
/// when the messenger has stored a catch-up's rows (``commit()``): rows are re-read rather than
/// lost, and the messenger's `tx_id` checks drop the overlap.
public actor KaspaMessageTransport: ChainTransport {
    public nonisolated let wallet: KaspaWallet
    public nonisolated let settings: KaspaNetworkSettings
    public nonisolated let indexer: KasiaIndexerClient?
    nonisolated let configuration: KaspaNodeConfiguration
    nonisolated let socket: any WebSocketTransport
    nonisolated let resolve: (@Sendable (URL) async throws -> URL)?
    nonisolated let profile: Profile
    /// The chain block after which the next catch-up reads, as saved in the profile.
    private var cursor: [UInt8]?
    /// How many chain pages' rows a catch-up hands over at a time (then saves its cursor).
    private let pagesPerBatch = 4
    /// The Kasia transactions each chain block walked in this process accepted, so that a reorg
    /// that removes the block can undo them (kaspa-node.md §8); the newest blocks only.
    private var acceptedBy = ChainAcceptance(limit: 10_000)
    /// Transactions a reorg un-accepted, not yet taken by the messenger.
    private var unaccepted: Set<String> = []

    /// The transport of `profile` on `settings`' network, reaching nodes through `webSocket` and
    /// the indexer through `http`. `configuration` overrides the node client's (time limits,
    /// backoff).
    public init(
        profile: Profile, settings: KaspaNetworkSettings, webSocket: any WebSocketTransport,
        http: any HTTPTransport = URLSessionTransport(), configuration: KaspaNodeConfiguration? = nil,
        resolve: (@Sendable (URL) async throws -> URL)? = nil, retry: WalletRetryPolicy = WalletRetryPolicy()
    ) throws {
        let configuration =
            configuration ?? KaspaNodeConfiguration(endpoints: settings.endpoints, network: settings.network)
        self.profile = profile
        self.settings = settings
        self.configuration = configuration
        socket = webSocket
        self.resolve = resolve
        indexer = settings.indexer.map { KasiaIndexerClient(indexer: $0, transport: http) }
        do {
            wallet = try KaspaWallet(
                profile: profile, settings: settings,
                node: KaspaNodeClient(configuration: configuration, transport: webSocket, resolve: resolve),
                retry: retry)
        } catch { throw MessagingError.wallet(error) }
        cursor = try Self.loadCursor(profile)
    }

    public nonisolated var network: KaspaNetwork { settings.network.network }

    // MARK: Submitting

    /// Builds, signs and submits `payload` as a transaction (kasia-protocol §12). The receipt's
    /// block time is now: the node accepted it into its mempool (sent); a chain walk that meets
    /// it later confirms it. Nothing is kept: the wallet keeps the pending transaction itself.
    public func submit(_ payload: OutgoingPayload) async throws -> SubmissionReceipt {
        // A handshake's amount is the protocol's, not a payment, so its fee may exceed it; the
        // profile's limits still hold.
        let sent = try await send(payload, approval: FeeApproval(feeAboveAmount: true))
        return SubmissionReceipt(
            txID: sent.transactionID, blockTime: UInt64(clamping: profile.clock.now.rawValue), fee: sent.fee,
            amountSompi: payload.receiver == nil ? nil : Self.request(for: payload).amount)
    }

    public func estimateFee(_ payload: OutgoingPayload) async throws -> UInt64 {
        do { return try await wallet.estimateFee(Self.request(for: payload)) } catch {
            throw MessagingError.wallet(error)
        }
    }

    public func pay(_ payload: OutgoingPayload, approval: FeeApproval) async throws -> WalletSendResult {
        guard payload.receiver != nil, payload.amount != nil else {
            throw MessagingError.invalidMessage("a payment needs a recipient and an amount")
        }
        return try await send(payload, approval: approval)
    }

    /// A transaction to `payload.receiver` (its amount, else a handshake's), or a self-spend.
    private func send(_ payload: OutgoingPayload, approval: FeeApproval) async throws -> WalletSendResult {
        do { return try await wallet.send(Self.request(for: payload), approval: approval) } catch {
            throw MessagingError.wallet(error)
        }
    }

    static func request(for payload: OutgoingPayload) -> KaspaTransactionBuilder.Request {
        payload.receiver.map {
            KaspaTransactionBuilder.Request(
                recipient: $0, amount: payload.amount ?? Messenger.handshakeAmountSompi, payload: payload.bytes)
        } ?? .selfSpend(payload: payload.bytes)
    }

    public func takeUnaccepted() -> Set<String> {
        defer { unaccepted = [] }
        return unaccepted
    }

    // MARK: Reading

    /// The accepted transactions since the saved cursor, then contacts' mempool transactions,
    /// handed to `deliver` every few pages; the cursor is saved after each batch is delivered.
    /// Without a cursor the walk starts at the pruning point (all the node keeps) when there is
    /// no indexer, or at the sink when an indexer holds the history.
    /// Every Kasia row is read (a restore learns its contacts from the stashes of this same walk;
    /// the ingest drops the rows of strangers); the mempool of every contact is, the quiet ones
    /// (real-time updates off) included.
    public func catchUp(
        watching: MessageWatchSet, progress: ReadProgressHandler? = nil,
        deliver: @Sendable ([IndexerEvent]) async throws -> Void
    ) async throws -> ChainCatchUp {
        var seen = Set<String>()
        var read = ReadProgress()
        let everyone = watching.contacts + watching.quietContacts
        let ending = try await walk(
            wallet.node, from: cursor, parties: nil, seen: &seen, read: &read, progress: progress
        ) { rows, reached in
            try await deliver(rows)
            try saveCursor(reached)
        }
        var pendingSeen = Set<String>()
        let pending = try await mempool(wallet.node, contacts: everyone, accepted: seen, seen: &pendingSeen)
        if !pending.isEmpty { try await deliver(pending) }
        read.rowsFound += pending.count
        return ChainCatchUp(stop: ending.stop, read: read)
    }

    /// Saves `reached` as where the next catch-up starts: the rows up to it are stored.
    private func saveCursor(_ reached: [UInt8]) throws {
        guard reached != cursor else { return }
        cursor = reached
        let url = profile.url(.kaspaChainCursor)
        do {
            try SecretFile.replace(
                url, contents: try JSONEncoder().encode(ChainCursor(block: Hex.encode(reached))), durably: false)
        } catch { throw MessagingError.storage("\(url.path): \(error)") }
    }

    /// The next catch-up starts at the pruning point: everything the node keeps is read again.
    public func rewind() throws {
        cursor = nil
        let url = profile.url(.kaspaChainCursor)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do { try FileManager.default.removeItem(at: url) } catch {
            throw MessagingError.storage("\(url.path): \(error)")
        }
    }

    public nonisolated func live(watching: MessageWatchSet, resumePoint: UInt64) -> AsyncThrowingStream<
        IndexerEvent, any Error
    > {
        let (output, continuation) = AsyncThrowingStream.makeStream(of: IndexerEvent.self, throwing: (any Error).self)
        // Tied to the stream: cancelled when its consumer goes away.
        let task = Task { [self] in
            do {
                try await follow(watching, into: continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return output
    }

    /// One live session: its own node connection, subscribed to our address and each contact's
    /// (not the quiet ones: they are read on sync); every (re)connect and every UTXO change walks
    /// the chain from where the session stands, keeping the rows that concern us and them.
    private func follow(
        _ watching: MessageWatchSet, into continuation: AsyncThrowingStream<IndexerEvent, any Error>.Continuation
    ) async throws {
        let client = KaspaNodeClient(configuration: configuration, transport: socket, resolve: resolve)
        var addresses = [wallet.address]
        for contact in watching.contacts where !addresses.contains(contact) { addresses.append(contact) }
        let contacts = watching.contacts
        let parties = Parties(me: wallet.address, contacts: contacts)
        let start = cursor
        // Subscribed at the connect below when the node is not reachable yet.
        try? await client.watch(addresses)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            group.addTask { [self] in
                var sessionCursor = start
                // Apart: a payment seen pending is read again once accepted, and then verified.
                var seen = Set<String>()
                var pendingSeen = Set<String>()
                var stuckWalks = 0
                for await event in client.events {
                    let changed: [KaspaAddress]
                    switch event {
                    case .connected, .resync: changed = contacts
                    case .utxosChanged(let change):
                        changed = (change.added.compactMap(\.address) + change.removed.compactMap(\.address)).filter {
                            contacts.contains($0)
                        }
                    case .disconnected, .virtualDaaScoreChanged: continue
                    }
                    // A failed read waits for the next change or reconnect, which reads again: the
                    // cursor and the seen set move only with rows that were yielded. A node whose
                    // pages stop advancing is read again only after a growing pause.
                    do {
                        var read = ReadProgress()  // a live follow reports no progress
                        let ending = try await walk(
                            client, from: sessionCursor, parties: parties, seen: &seen, read: &read
                        ) { rows, reached in
                            for row in rows { continuation.yield(row) }
                            sessionCursor = reached
                        }
                        if case .notAdvancing? = ending.stop {
                            stuckWalks += 1
                            try? await Task.sleep(for: configuration.backoff.delay(afterFailures: stuckWalks))
                        } else {
                            stuckWalks = 0
                        }
                    } catch {
                        continue
                    }
                    if let pending = try? await mempool(client, contacts: changed, accepted: seen, seen: &pendingSeen) {
                        for row in pending { continuation.yield(row) }
                    }
                }
            }
            await group.next()
            group.cancelAll()
        }
        await client.disconnect()
    }

    /// The rows of the transactions the chain accepted after `start` (kaspa-node.md §5) that
    /// concern `parties` (all, without), read by ``ChainWalk`` to the node's sink and handed to
    /// `deliver` with the last chain block they reach every ``pagesPerBatch`` pages and at the
    /// end; answers how the walk ended. A start the node no longer knows (`cannot find header`:
    /// pruned, or from another network's node) is read again from the default start: the `tx_id`
    /// checks drop what was read before. A page refused again and again is skipped (its
    /// transactions are not seen by this walk), never retried forever.
    ///
    /// `seen` takes a batch's rows once it is delivered: a walk that fails on a later page reads
    /// the undelivered ones again.
    private func walk(
        _ client: KaspaNodeClient, from start: [UInt8]?, parties: Parties?, seen: inout Set<String>,
        read step: inout ReadProgress, progress: ReadProgressHandler? = nil,
        deliver: (_ rows: [IndexerEvent], _ reached: [UInt8]) async throws -> Void
    ) async throws -> ChainWalk.Ending {
        var events: [IndexerEvent] = []
        var newlySeen = Set<String>()
        var pages = 0
        var startScore: UInt64?  // the DAA score of the first block walked, for the fraction done
        let now = UInt64(clamping: profile.clock.now.rawValue)
        let ending: ChainWalk.Ending
        do {
            // One read of the DAG: the default start, and the sink the walk ends at (kaspa-node.md
            // §11: at 10 blocks per second a page rarely comes back empty).
            let info = try await client.call(.getBlockDagInfo, as: RPCBlockDAGInfo.self)
            let fallback = try defaultStart(info)
            ending = try await ChainWalk(client: client).walk(
                from: start ?? fallback, fallback: start == nil ? nil : fallback, sink: try? Hex.decode(info.sink),
                scores: ChainWalk.Scores(start: nil, sink: info.virtualDaaScore)
            ) { page in
                // A reorg: what the removed chain blocks accepted is no longer accepted; a block
                // that accepts it again below is read as new.
                for removed in page.removed {
                    let undone = acceptedBy.remove(removed)
                    unaccepted.formUnion(undone)
                    seen.subtract(undone)
                    newlySeen.subtract(undone)
                    events.removeAll { undone.contains($0.txID) }
                }
                for block in page.added {
                    var accepted: [String] = []
                    for transaction in block.transactions {
                        guard
                            let event = KaspaChatRows.event(
                                transaction, blockTime: block.time ?? now, network: network,
                                acceptingBlock: Hex.encode(block.hash))
                        else {
                            continue
                        }
                        accepted.append(event.txID)
                        guard parties?.concern(event) ?? true, !seen.contains(event.txID),
                            newlySeen.insert(event.txID).inserted
                        else { continue }
                        unaccepted.remove(event.txID)
                        events.append(event)
                    }
                    acceptedBy.record(block.hash, accepted: accepted)
                }
                pages += 1
                step.blocksWalked += page.added.count
                step.rowsFound = seen.count + newlySeen.count
                if startScore == nil { startScore = page.added.first?.daaScore }
                if let start = startScore, let score = page.added.last?.daaScore, info.virtualDaaScore > start {
                    step.fractionWalked = min(
                        1, Double(score > start ? score - start : 0) / Double(info.virtualDaaScore - start))
                }
                progress?(step)
                if pages % pagesPerBatch == 0, let last = page.added.last {
                    try await deliver(events, last.hash)
                    seen.formUnion(newlySeen)
                    events = []
                    newlySeen = []
                }
            }
        } catch let error as KaspaNodeError { throw MessagingError.wallet(.node(error)) }
        // Always, rows or not: a page of removals alone is news for the messenger too.
        try await deliver(events, ending.reached)
        seen.formUnion(newlySeen)
        return ending
    }

    /// Where a walk without a cursor starts: the pruning point (all the node keeps) when there
    /// is no indexer, the sink when an indexer holds the history.
    private func defaultStart(_ info: RPCBlockDAGInfo) throws -> [UInt8] {
        let hex = indexer == nil ? info.pruningPointHash : info.sink
        guard let hash = try? Hex.decode(hex), hash.count == 32 else {
            throw MessagingError.storage("the node's block DAG info names no usable block (\(hex))")
        }
        return hash
    }

    /// Contacts' transactions in the mempool (`sending`: spending their coins, so written by
    /// them), as rows stamped now: those neither `accepted` (read from the chain) nor `seen` before.
    /// A pending payment is not verified (issue 50 item 7).
    private func mempool(
        _ client: KaspaNodeClient, contacts: [KaspaAddress], accepted: Set<String>, seen: inout Set<String>
    ) async throws -> [IndexerEvent] {
        guard !contacts.isEmpty else { return [] }
        let answer: RPCMempoolEntriesByAddresses
        do {
            answer = try await client.call(
                .getMempoolEntriesByAddresses, RPCMempoolEntriesQuery(addresses: contacts),
                as: RPCMempoolEntriesByAddresses.self)
        } catch { throw MessagingError.wallet(.node(error)) }
        let now = UInt64(clamping: profile.clock.now.rawValue)
        var events: [IndexerEvent] = []
        for entry in answer.entries {
            for sending in entry.sending {
                guard
                    let event = KaspaChatRows.event(
                        sending.transaction, blockTime: now, network: network, knownSender: entry.address),
                    !accepted.contains(event.txID), seen.insert(event.txID).inserted
                else { continue }
                events.append(event)
            }
        }
        return events
    }

    // MARK: The cursor file

    private struct ChainCursor: Codable {
        var block: String
    }

    private static func loadCursor(_ profile: Profile) throws -> [UInt8]? {
        let url = profile.url(.kaspaChainCursor)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let saved = try JSONDecoder().decode(ChainCursor.self, from: Data(contentsOf: url))
            let hash = try Hex.decode(saved.block)
            guard hash.count == 32 else { throw MessagingError.storage("not a 32-byte block hash") }
            return hash
        } catch {
            throw MessagingError.storage("\(url.path) is damaged: \(error)")
        }
    }
}
