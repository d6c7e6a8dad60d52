public import ChatTimeline
public import Foundation
import KasiaProtocol
public import KaspaCrypto
import KaspaNode
public import KaspaTransaction
import TandemAPI
public import TandemAccounts
import TandemBasics
public import TandemProfile

/// The relay as a ``MessageTransport`` (issue 11; issue 24 item 3): payloads signed by the wallet
/// key as ``RelaySubmission``s (or, after ``useKaspaTransactions(spending:)``, as signed Kaspa
/// transactions, issue 15), rate limits waited out, the outbox of signed submissions that makes a
/// resend byte-identical (``RelayOutbox``), the server's SSE stream, and its `/kasia` reads.
public actor RelayMessageTransport: OutboxTransport {
    public nonisolated let relay: RelayClient
    nonisolated let stream: RelayEventStream
    nonisolated let profile: Profile
    private let key: PrivateKey
    private let address: KaspaAddress
    /// Submissions sent but not yet acknowledged, resent byte for byte (``RelayOutbox``).
    private var outbox: RelayOutbox
    /// When set, submissions are signed Kaspa transactions spending these UTXOs (issue 15 item 4).
    private var kaspaUTXOs: [KaspaUtxoEntry]?

    /// How often a rate-limited submission waits out `Retry-After` before giving up.
    static let rateLimitRetries = 5

    public init(
        profile: Profile, server: URL, transport: any HTTPTransport = URLSessionTransport(),
        streamTransport: any EventStreamTransport = URLSessionEventStreamTransport()
    ) throws {
        self.profile = profile
        relay = RelayClient(server: server, transport: transport)
        stream = RelayEventStream(server: server, transport: streamTransport, clock: profile.clock)
        key = try profile.walletKey()
        address = KaspaAddress(publicKey: key.xOnlyPublicKey)
        do { outbox = try RelayOutbox.load(from: profile.url(.relayOutbox)) } catch {
            throw MessagingError.storage("\(profile.url(.relayOutbox).path): \(error)")
        }
    }

    public nonisolated var network: KaspaNetwork { .mainnet }
    public nonisolated var indexer: KasiaIndexerClient? { relay.indexer }

    // MARK: Submitting

    public func submit(_ payload: OutgoingPayload) async throws -> SubmissionReceipt {
        try await signAndSubmit(payload, keepingFor: nil)
    }

    public func submit(_ payload: OutgoingPayload, keeping message: MessageID) async throws -> SubmissionReceipt {
        try await signAndSubmit(payload, keepingFor: message)
    }

    /// Signs and submits `payload`, first keeping the signed submission for `message` if given.
    private func signAndSubmit(_ payload: OutgoingPayload, keepingFor message: MessageID?) async throws
        -> SubmissionReceipt
    {
        try Messenger.checkSize(payload.bytes)
        if kaspaUTXOs != nil { return try await submitTransaction(payload) }
        let submission = try sign(payload)
        if let message {
            // Kept before it goes out, so a relay that dies before answering is sent the same bytes.
            outbox.entries[message.uuid.uuidString] = submission
            try saveOutbox()
        }
        return try await submit(submission)
    }

    public func resubmit(_ message: MessageID) async throws -> SubmissionReceipt? {
        if outbox.entries[message.uuid.uuidString] == nil { try reloadOutbox() }
        guard let submission = outbox.entries[message.uuid.uuidString] else { return nil }
        return try await submit(submission)
    }

    public func unacknowledged() throws -> [MessageID] {
        try reloadOutbox()
        var ids: [MessageID] = []
        for key in outbox.entries.keys {
            guard let uuid = UUID(uuidString: key) else {
                outbox.entries[key] = nil
                continue
            }
            ids.append(MessageID(uuid))
        }
        try saveOutbox()
        return ids
    }

    /// Reads the file again on a miss: another process of this profile may have kept it.
    public func keptMessage(txID: String) throws -> MessageID? {
        if outbox.messageID(forTxID: txID) == nil { try reloadOutbox() }
        guard let key = outbox.messageID(forTxID: txID), let uuid = UUID(uuidString: key) else { return nil }
        return MessageID(uuid)
    }

    public func acknowledge(_ message: MessageID) throws {
        guard outbox.entries.removeValue(forKey: message.uuid.uuidString) != nil else { return }
        try saveOutbox()
    }

    /// Signs `payload` with the wallet key and a fresh random nonce.
    func sign(_ payload: OutgoingPayload) throws -> RelaySubmission {
        var generator = SystemRandomNumberGenerator()
        do {
            return try RelaySubmission.signed(
                payload: payload.bytes, by: key, receiver: payload.receiver, amount: payload.amount,
                nonce: generator.next())
        } catch {
            throw MessagingError.signing(error.description)
        }
    }

    /// Submits `submission`, waiting out rate limits. The same signed submission is retried:
    /// the relay answers a resubmission with the same receipt and one row (issue 11 item 1).
    private func submit(_ submission: RelaySubmission) async throws -> SubmissionReceipt {
        try await retryingRateLimits { () async throws(RelayClientError) in try await relay.submit(submission) }
    }

    /// Runs `call`, waiting out `Retry-After` up to ``rateLimitRetries`` times.
    private func retryingRateLimits(_ call: () async throws(RelayClientError) -> RelayReceipt) async throws
        -> SubmissionReceipt
    {
        var attempt = 0
        while true {
            do {
                let receipt = try await call()
                return SubmissionReceipt(txID: receipt.txID, blockTime: receipt.blockTime)
            } catch {
                guard case .rateLimited(let seconds, _) = error, attempt < Self.rateLimitRetries else {
                    throw MessagingError.relay(error)
                }
                attempt += 1
                let wait = Duration.seconds(Int64(clamping: max(seconds ?? 1, 1)))
                try await profile.clock.sleep(until: profile.clock.now.advanced(by: wait), tolerance: nil)
            }
        }
    }

    private func saveOutbox() throws {
        do { try outbox.save(to: profile.url(.relayOutbox)) } catch {
            throw MessagingError.storage("\(profile.url(.relayOutbox).path): \(error)")
        }
    }

    private func reloadOutbox() throws {
        do { outbox = try RelayOutbox.load(from: profile.url(.relayOutbox)) } catch {
            throw MessagingError.storage("\(profile.url(.relayOutbox).path): \(error)")
        }
    }

    // MARK: Kaspa transactions through the relay (issue 15 item 4)

    /// From now on, send each payload as a signed Kaspa transaction spending `utxos`: handshakes
    /// pay 0.2 KAS to the peer with change back, messages and self-stashes are self-spends. Each
    /// transaction's change becomes a UTXO of the pool, so a handshake and its self-stash can
    /// follow one another.
    public func useKaspaTransactions(spending utxos: [KaspaUtxoEntry]) {
        kaspaUTXOs = utxos
    }

    /// The UTXOs the next Kaspa transaction may spend; nil when submissions are relay-signed.
    public var kaspaUTXOPool: [KaspaUtxoEntry]? { kaspaUTXOs }

    private func submitTransaction(_ payload: OutgoingPayload) async throws -> SubmissionReceipt {
        let builder = KaspaTransactionBuilder(key: key)
        let request =
            payload.receiver.map {
                KaspaTransactionBuilder.Request(
                    recipient: $0, amount: payload.amount ?? Messenger.handshakeAmountSompi, payload: payload.bytes)
            } ?? .selfSpend(payload: payload.bytes)
        let transaction: KaspaTransaction
        do { transaction = try builder.build(request, utxos: kaspaUTXOs ?? []) } catch {
            throw MessagingError.signing("Kaspa transaction: \(error.description)")
        }
        let submission: RelayKaspaSubmission
        do { submission = RelayKaspaSubmission(transaction: try RelayKaspaTransaction(converting: transaction)) } catch
        {
            throw MessagingError.signing("Kaspa transaction: \(error)")
        }
        let receipt = try await retryingRateLimits { () async throws(RelayClientError) in
            try await relay.submit(submission)
        }
        spend(transaction)
        return receipt
    }

    /// Removes the spent UTXOs from the pool and adds the outputs paid back to us.
    private func spend(_ transaction: KaspaTransaction) {
        let spent = Set(transaction.inputs.map(\.previousOutpoint))
        var pool = (kaspaUTXOs ?? []).filter { !spent.contains($0.outpoint) }
        let ours = KaspaScriptPublicKey(address: address)
        let id = transaction.id
        for (index, output) in transaction.outputs.enumerated() where output.scriptPublicKey == ours {
            pool.append(
                KaspaUtxoEntry(
                    address: address, outpoint: KaspaOutpoint(transactionID: id, index: UInt32(index)),
                    amount: output.value, scriptPublicKey: output.scriptPublicKey))
        }
        kaspaUTXOs = pool
    }

    // MARK: Reading

    public nonisolated func live(watching: MessageWatchSet, resumePoint: UInt64) -> AsyncThrowingStream<
        IndexerEvent, any Error
    > {
        stream.events(aliasHexes: watching.aliasHexes, addresses: watching.addresses, lastEventID: String(resumePoint))
    }
}
