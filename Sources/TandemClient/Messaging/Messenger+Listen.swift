import KasiaProtocol
import KaspaCrypto
import TandemBasics

extension Messenger {
    /// What the live stream watches: every alias we read or send on, our address, and every
    /// contact with a conversation (their addresses, for the Kaspa transport's subscription).
    func watchSet() throws -> MessageWatchSet {
        let policy = try routing.policy()
        let now = profile.clock.now
        var aliases = Set<Alias>()
        var peers = Set<KaspaAddress>()
        for state in try routing.fetchTable().states.values {
            aliases.formUnion(state.incomingAliases(policy: policy, now: now))
            aliases.formUnion(state.ownSentAliases(policy: policy))
            peers.insert(state.contactAddress)
        }
        return MessageWatchSet(
            aliasHexes: aliases.map(\.indexerQueryParameter).sorted(), addresses: [address.description],
            contacts: peers.sorted { $0.description < $1.description })
    }

    /// Syncs, then follows `GET /kasia/stream` (issue 11 items 3–4), yielding each message,
    /// payment, handshake or broadcast for us as it arrives.
    ///
    /// The stream resumes from the newest position fully read before the sync, so rows that
    /// land while syncing are replayed rather than lost, and the `tx_id` checks drop the
    /// overlap. A handshake that adds a conversation changes the watched aliases, so the
    /// stream is reopened from the last event.
    public nonisolated func listen() -> AsyncThrowingStream<IncomingMessage, any Error> {
        let (output, continuation) = AsyncThrowingStream.makeStream(
            of: IncomingMessage.self, throwing: (any Error).self)
        let task = Task { [self] in
            do {
                while !Task.isCancelled {
                    let resume = await resumePoint
                    for message in try await sync() { continuation.yield(message) }
                    let watch = try await watchSet()
                    let events = transport.live(watching: watch, resumePoint: resume)
                    for try await event in events {
                        if let message = try await apply(event) { continuation.yield(message) }
                        if try await watchSet() != watch { break }
                    }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return output
    }

    private func apply(_ event: RelayEvent) async throws -> IncomingMessage? {
        let message = try await ingest(event)
        if !event.id.isEmpty {
            cursors.lastEventID = event.id
            try saveCursors()
        }
        return message
    }
}
