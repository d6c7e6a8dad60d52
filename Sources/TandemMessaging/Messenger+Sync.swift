import ChatHistory
import ChatTimeline
import KasiaProtocol
import KaspaCrypto
import TandemAPI
import TandemBasics

extension Messenger {
    /// Pulls every indexer route this wallet reads (kasia-protocol §10 paging) and applies the
    /// rows: our saved handshakes, handshakes to us and from us, each contact's messages on every alias we
    /// watch for it, our own sent messages, payments to us. Returns what arrived for us, oldest
    /// first per route. Cursors are saved after each route, so an interrupted sync resumes.
    /// Then what the relay has not acknowledged goes out again (``resendUnsent()``): after our
    /// own rows were read, so a message the relay stored before dying is promoted, not resent.
    ///
    /// `progress` hears how far the read has come (issue 51 item 9): after each indexer route and
    /// each page of the chain walk, and once more with the totals when the read is over.
    @discardableResult
    public func sync(progress: ReadProgressHandler? = nil) async throws -> [IncomingMessage] {
        var delivered: [IncomingMessage] = []
        var step = ReadProgress()
        if let indexer = transport.indexer {
            do {
                delivered = try await pull(from: indexer) { rows in
                    step.routesRead += 1
                    step.rowsFound += rows
                    progress?(step)
                }
            } catch let error as RelayClientError {
                throw MessagingError.relay(error)
            }
        }
        if let chain = sender.chain {
            let run = nextCatchUp
            nextCatchUp += 1
            caughtUp[run] = []
            defer { caughtUp[run] = nil }
            let relayed = step
            // The walk's own counts, after what the indexer routes read.
            var walking: ReadProgressHandler?
            if let progress {
                walking = { walk in
                    var merged = walk
                    merged.routesRead = relayed.routesRead
                    merged.rowsFound += relayed.rowsFound
                    progress(merged)
                }
            }
            let caught = try await chain.catchUp(watching: watchSet(), progress: walking) { [self] rows in
                try await ingestCaughtUp(rows, run: run)
            }
            lastCatchUpStop = caught.stop
            step.blocksWalked = caught.read.blocksWalked
            step.fractionWalked = caught.read.fractionWalked
            step.rowsFound += caught.read.rowsFound
            delivered += caughtUp[run] ?? []
            try await applyReorgs()
        }
        try await resendUnsent()
        step.finished = true
        progress?(step)
        return delivered
    }

    /// One batch of the transport's catch-up: stored before the transport moves its cursor past
    /// it, with the reorgs it revealed.
    private func ingestCaughtUp(_ rows: [IndexerEvent], run: Int) async throws {
        for event in rows {
            if let message = try await ingest(event) { caughtUp[run, default: []].append(message) }
        }
        try await applyReorgs()
    }

    /// Rebuilds this device from the wallet key alone: our saved-handshake stashes give the
    /// contacts, the contacts give the deterministic aliases (seed 000 §3.4), and a sync from
    /// the start of every route brings back the history.
    @discardableResult
    public func restore(progress: ReadProgressHandler? = nil) async throws -> [IncomingMessage] {
        cursors = RelaySyncCursors()
        try saveCursors()
        try await sender.chain?.rewind()
        return try await sync(progress: progress)
    }

    /// `routeRead` is told each route's row count once the route is read to its end.
    private func pull(from indexer: KasiaIndexerClient, routeRead: (Int) -> Void) async throws -> [IncomingMessage] {
        var delivered: [IncomingMessage] = []
        let me = address.description
        func read<Row>(_ rows: [Row]) -> [Row] {
            routeRead(rows.count)
            return rows
        }

        var cursor = cursors[.savedHandshakes]
        let scopeHex = Hex.encode(Array(KasiaPayload.savedHandshakeScope.utf8))
        for row in read(try await indexer.selfStashes(owner: me, scopeHex: scopeHex, after: &cursor)) {
            try ingestSavedHandshake(row)
        }
        try advance(.savedHandshakes, to: cursor)

        cursor = cursors[.handshakesToMe]
        for row in read(try await indexer.handshakes(toReceiver: me, after: &cursor)) {
            if let message = try ingestHandshake(row) { delivered.append(message) }
        }
        try advance(.handshakesToMe, to: cursor)

        cursor = cursors[.handshakesFromMe]
        for row in read(try await indexer.handshakes(bySender: me, after: &cursor)) { try ingestOwnHandshake(row) }
        try advance(.handshakesFromMe, to: cursor)

        let policy = try routing.policy()
        let table = try routing.fetchTable()
        let now = profile.clock.now
        for state in table.states.values.sorted(by: { $0.contactAddress.description < $1.contactAddress.description }) {
            let peer = state.contactAddress.description
            for alias in state.incomingAliases(policy: policy, now: now).sorted() {
                let route = RelaySyncCursors.Route.messages(sender: peer, aliasHex: alias.indexerQueryParameter)
                cursor = cursors[route]
                for row in read(
                    try await indexer.contextualMessages(
                        bySender: peer, aliasHex: alias.indexerQueryParameter, after: &cursor))
                {
                    if let message = try await ingestMessage(row) { delivered.append(message) }
                }
                try advance(route, to: cursor)
            }
        }
        var ownAliases: [Alias: KaspaAddress] = [:]
        for state in table.states.values {
            for alias in state.ownSentAliases(policy: policy) { ownAliases[alias] = state.contactAddress }
        }
        for (alias, peer) in ownAliases.sorted(by: { $0.key < $1.key }) {
            let route = RelaySyncCursors.Route.ownMessages(aliasHex: alias.indexerQueryParameter)
            cursor = cursors[route]
            for row in read(
                try await indexer.contextualMessages(
                    bySender: me, aliasHex: alias.indexerQueryParameter, after: &cursor))
            {
                _ = try await ingestMessage(row, ownPeer: peer)
            }
            try advance(route, to: cursor)
        }

        cursor = cursors[.paymentsToMe]
        for row in read(try await indexer.payments(toReceiver: me, after: &cursor)) {
            if let message = try ingestPayment(row) { delivered.append(message) }
        }
        try advance(.paymentsToMe, to: cursor)
        delivered += try await recheckUnverifiedPayments(from: indexer)
        return delivered
    }

    /// How far back a sync asks the relay again about payments it has not seen accepted: a real
    /// payment is accepted within seconds, so one still unverified after this never will be.
    static let unverifiedPaymentWindow: UInt64 = 3 * 24 * 3600 * 1000
    /// Block times from a node and relay times from a server come from different clocks.
    static let clockMargin: UInt64 = 10 * 60 * 1000

    /// Reads the relay's payments to us again from the oldest that is still unverified (within
    /// ``unverifiedPaymentWindow``), without moving the route's cursor: a server with
    /// `--kaspa-node` marks a relayed payment verified once a chain block accepts it, and the row
    /// is verified here too (issue 50 item 7).
    private func recheckUnverifiedPayments(from indexer: KasiaIndexerClient) async throws -> [IncomingMessage] {
        let now = UInt64(clamping: profile.clock.now.rawValue)
        let since = now > Self.unverifiedPaymentWindow ? now - Self.unverifiedPaymentWindow : 0
        guard let oldest = try history.oldestUnverifiedPayment(since: since) else { return [] }
        var cursor = IndexerCursor(blockTime: oldest > Self.clockMargin ? oldest - Self.clockMargin : 0)
        var verified: [IncomingMessage] = []
        for row in try await indexer.payments(toReceiver: address.description, after: &cursor) where row.isVerified {
            if let message = try ingestPayment(row) { verified.append(message) }
        }
        return verified
    }

    private func advance(_ route: RelaySyncCursors.Route, to cursor: IndexerCursor) throws {
        guard cursors[route] != cursor else { return }
        cursors[route] = cursor
        try saveCursors()
    }

    /// Our confirmed rows whose transactions a reorg un-accepted go back to sent (the transport's
    /// ``ChainTransport/takeUnaccepted()``). Taken after rows are applied, never before: a row
    /// read before the reorg may still be on its way and would confirm again what the reorg
    /// undid, while a re-acceptance leaves the transport's set before its row is yielded.
    func applyReorgs() async throws {
        guard let chain = sender.chain else { return }
        let undone = await chain.takeUnaccepted()
        guard !undone.isEmpty else { return }
        try history.unconfirm(txIDs: undone.map(TxID.init))
    }

    func saveCursors() throws {
        do { try cursors.save(to: profile.url(.relayCursors)) } catch {
            throw MessagingError.storage("\(profile.url(.relayCursors).path): \(error)")
        }
    }

    /// The newest relay position this device has fully read: where the live stream resumes.
    var resumePoint: UInt64 {
        let routes = cursors.routes.values.map(\.blockTime).max() ?? 0
        return max(routes, cursors.lastEventID.flatMap(UInt64.init) ?? 0)
    }
}
