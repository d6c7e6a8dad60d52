public import Contacts
import KasiaProtocol
public import KaspaCrypto
public import RoutingStore
public import TandemBasics

extension Messenger {
    /// What the live stream watches: every alias we read or send on, our address, and every
    /// contact with a conversation (their addresses, for the Kaspa transport's subscription).
    /// A contact with real-time updates off is read on sync only (seed 002; issue 24 item 3).
    func watchSet() throws -> MessageWatchSet {
        try Self.watchSet(
            routing: routing, contacts: contacts, wallet: wallet, address: address, now: profile.clock.now)
    }

    /// ``watchSet()`` from the stores themselves (`tandem-bench chat-node` times it).
    public static func watchSet(
        routing: RoutingStore, contacts: ContactsStore, wallet: ContactAddress, address: KaspaAddress, now: UnixMillis
    ) throws -> MessageWatchSet {
        let policy = try routing.policy()
        let quiet = Set(
            try contacts.contacts(wallet: wallet, includeDeleted: true).filter(\.realtimeUpdatesDisabled).map(
                \.address))
        var aliases = Set<Alias>()
        var peers = Set<KaspaAddress>()
        var quietPeers = Set<KaspaAddress>()
        for state in try routing.fetchTable().states.values {
            aliases.formUnion(state.ownSentAliases(policy: policy))
            if quiet.contains(ContactAddress(state.contactAddress)) {
                quietPeers.insert(state.contactAddress)
                continue
            }
            aliases.formUnion(state.incomingAliases(policy: policy, now: now))
            peers.insert(state.contactAddress)
        }
        return MessageWatchSet(
            aliasHexes: aliases.map(\.indexerQueryParameter).sorted(), addresses: [address.description],
            contacts: Self.sortedByText(peers), quietContacts: Self.sortedByText(quietPeers))
    }

    /// `addresses` in the order of their text, each encoded once (an address's text is a bech32
    /// encoding: comparing texts directly encodes both on every comparison).
    private static func sortedByText(_ addresses: Set<KaspaAddress>) -> [KaspaAddress] {
        addresses.map { ($0.description, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Syncs, then follows the transport's live rows (the relay's `GET /kasia/stream`, or the
    /// Kaspa node's UTXO changes; issue 11 items 3–4, issue 24 item 3), yielding each message,
    /// payment, handshake or broadcast for us as it arrives.
    ///
    /// The stream resumes from the newest position fully read before the sync, so rows that
    /// land while syncing are replayed rather than lost, and the `tx_id` checks drop the
    /// overlap. When the watched set changes — a handshake adds a conversation, or the contacts
    /// store adds, removes or quiets a contact (its change feed, debounced by `quietPeriod` up to
    /// `maxWait`: KaChat's 0.8 s and 5 s; another process's edits are seen by comparing the set
    /// every `maxWait`) — the stream is reopened on the new set.
    public nonisolated func listen(
        quietPeriod: Duration = .milliseconds(800), maxWait: Duration = .seconds(5)
    ) -> AsyncThrowingStream<IncomingMessage, any Error> {
        let (output, continuation) = AsyncThrowingStream.makeStream(
            of: IncomingMessage.self, throwing: (any Error).self)
        let task = Task { [self] in
            do {
                try await follow(into: continuation, quietPeriod: quietPeriod, maxWait: maxWait)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return output
    }

    /// Sync, then the live rows of the watched set until it changes; again, until cancelled. Each
    /// round subscribes to the contacts' change feed before it reads the watched set, so a change
    /// made in between is either in the set read or wakes the round.
    private func follow(
        into continuation: AsyncThrowingStream<IncomingMessage, any Error>.Continuation, quietPeriod: Duration,
        maxWait: Duration
    ) async throws {
        while !Task.isCancelled {
            let changes = try watchedSetChanges(quietPeriod, maxWait, profile.clock)
            defer { changes.cancel() }
            let resume = resumePoint
            for message in try await sync() { continuation.yield(message) }
            let watch = try watchSet()
            let events = transport.live(watching: watch, resumePoint: resume)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { [self] in
                    for try await event in events {
                        let (message, changesWatch) = try await apply(event)
                        try await applyReorgs()
                        if let message { continuation.yield(message) }
                        if changesWatch, try await watchSet() != watch { return }
                    }
                }
                // Another process's edit (`tandem contacts realtime … off` beside a running
                // `listen`) reaches no feed of this one: the set is compared every `maxWait` too.
                group.addTask { [self] in
                    while true {
                        try await Task.sleep(for: maxWait)
                        if try await watchSet() != watch { return }
                    }
                }
                group.addTask { [self] in
                    try await withTaskCancellationHandler {
                        while await changes.next() {
                            if try await watchSet() != watch { return }
                        }
                    } onCancel: {
                        changes.cancel()
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// The next change of this wallet's contacts, debounced (the contacts store's feed).
    private nonisolated func watchedSetChanges<C: WallClock>(_ quietPeriod: Duration, _ maxWait: Duration, _ clock: C)
        throws -> WatchedSetChanges
    {
        let feed = try contacts.changeFeed(
            wallet: wallet, interest: .allChanges, quietPeriod: quietPeriod, maxWait: maxWait, clock: clock)
        return WatchedSetChanges(
            next: {
                var batches = feed.makeAsyncIterator()
                return await batches.next() != nil
            }, cancel: { feed.cancel() })
    }

    /// Applies a live row; says whether it may have changed the watched set (its plan saved a
    /// conversation's routing with other aliases, or added a contact).
    private func apply(_ event: IndexerEvent) async throws -> (IncomingMessage?, changesWatch: Bool) {
        let (message, changesWatch) = try await ingestLive(event)
        if !event.id.isEmpty {
            cursors.lastEventID = event.id
            try saveCursors()
        }
        return (message, changesWatch)
    }

    /// Turns real-time updates for `peer` on or off (seed 002 `realtimeUpdatesDisabled`): off,
    /// the contact's rows are not followed live, only read on sync; a running ``listen()``
    /// follows the change after the change feed's quiet period.
    public func setRealtimeUpdates(_ enabled: Bool, for peer: KaspaAddress) throws {
        try contacts.setRealtimeUpdatesDisabled(ContactAddress(peer), wallet: wallet, !enabled)
    }
}

/// One subscription to the contacts' changes: `next` returns true at the next debounced change,
/// false when cancelled; `cancel` ends the subscription. Every batch is compared as a watch set
/// (the feed's own watched set follows the contacts alone, not routing or quiet contacts).
private struct WatchedSetChanges: Sendable {
    let next: @Sendable () async -> Bool
    let cancel: @Sendable () -> Void
}
