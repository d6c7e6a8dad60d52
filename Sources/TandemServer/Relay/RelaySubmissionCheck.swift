import KasiaIndex
import KasiaProtocol
import KaspaCrypto
import TandemAPI
import TandemBasics
import TandemServerStore

/// Turns a decoded ``RelaySubmission`` into the row to store, or the refusal to answer
/// (issue 11 item 1). The server reads the payload's envelope with `KasiaProtocol`'s parser to
/// classify it; it never opens the sealed bytes.
///
/// Receiver rules: handshakes (and legacy `ciph_msg:` bodies, which the indexer files as
/// handshakes) and payments pay their first output to `receiver`, so it is required.
/// Contextual messages, self-stashes and broadcasts are self-spends: "forbidden" means the
/// submission carries no `receiver` and no non-zero `amount`.
struct RelaySubmissionCheck {
    /// Kasia web's client-side cap on a payload (kasia-protocol §12).
    static let maxPayloadBytes = KasiaIndexRow.maximumPayloadBytes

    /// The signer's address, once its form is known to be valid (rate-limit key).
    let sender: KaspaAddress
    let senderKey: XOnlyPublicKey
    private let submission: RelaySubmission
    private let payloadBytes: [UInt8]
    private let signature: SchnorrSignature

    /// Checks everything but the signature: encodings, sizes and addresses. `keys` remembers
    /// the parsed keys of recent senders (the server passes its cache; nil parses every time).
    init(_ submission: RelaySubmission, keys: SenderKeyCache? = nil) throws(APIFailure) {
        self.submission = submission
        guard submission.payload.utf8.count <= 2 * Self.maxPayloadBytes else {
            throw APIFailure(.contentTooLarge, .payloadTooLarge, "payload is larger than \(Self.maxPayloadBytes) bytes")
        }
        guard !submission.payload.isEmpty, let payloadBytes = Hex.decodeLowercase(submission.payload) else {
            throw APIFailure(.badRequest, .invalidHex, "payload must be non-empty lowercase hex")
        }
        guard let signatureBytes = Hex.decodeLowercase(submission.signature, byteCount: 64),
            let signature = try? SchnorrSignature(rawRepresentation: signatureBytes)
        else { throw APIFailure(.badRequest, .invalidHex, "signature must be 128 lowercase hex characters") }
        self.payloadBytes = payloadBytes
        self.signature = signature

        let signer = try Self.signer(submission.sender, keys: keys)
        self.sender = signer.address
        self.senderKey = signer.key
        if let receiver = submission.receiver {
            do { _ = try KaspaAddress(receiver) } catch {
                throw APIFailure(.badRequest, .invalidAddress, "receiver: \(error.description)")
            }
        }
        if let amount = submission.amount, amount > UInt64(Int64.max) {
            throw APIFailure(.badRequest, .validationError, "amount exceeds \(Int64.max) sompi")
        }
    }

    /// The sender's address and key: from `keys` when it holds this text, else parsed (a
    /// version-0 address whose x lies on the curve) and remembered.
    private static func signer(_ text: String, keys: SenderKeyCache?) throws(APIFailure) -> SenderKeyCache.Entry {
        if let known = keys?.entry(for: text) { return known }
        let address: KaspaAddress
        do { address = try KaspaAddress(text) } catch {
            throw APIFailure(.badRequest, .invalidAddress, "sender: \(error.description)")
        }
        guard address.version == .publicKey else {
            throw APIFailure(.badRequest, .senderNotSchnorr, "sender must be a version-0 (Schnorr) address")
        }
        let entry: SenderKeyCache.Entry
        do { entry = SenderKeyCache.Entry(address: address, key: try address.xOnlyPublicKey()) } catch {
            throw APIFailure(.badRequest, .invalidAddress, "sender: \(error.description)")
        }
        keys?.store(entry, for: text)
        return entry
    }

    /// Classifies the payload, applies the receiver rules and verifies the signature; the
    /// draft is what the store keeps.
    func draft() throws(APIFailure) -> KasiaRecordDraft {
        let envelope: KasiaEnvelope
        do { envelope = try KasiaEnvelope(parsing: payloadBytes) } catch {
            throw APIFailure(.badRequest, .notAKasiaPayload, "payload: \(error.description)")
        }
        // The stored body must be the bytes on chain: refuse forms that would not re-encode
        // to themselves (such as uppercase hex bodies), so `message_payload` never lies.
        let payload = envelope.payload
        guard envelope.encoded == payloadBytes else {
            throw APIFailure(.badRequest, .notAKasiaPayload, "payload is not in the canonical form of its kind")
        }
        let (kind, tag) = Self.classify(payload)
        let needsReceiver = kind == .handshake || kind == .payment
        if needsReceiver && submission.receiver == nil {
            throw APIFailure(.badRequest, .receiverRequired, "a \(payload.kindName) needs receiver (its first output)")
        }
        if !needsReceiver && (submission.receiver != nil || (submission.amount ?? 0) != 0) {
            throw APIFailure(
                .badRequest, .receiverForbidden, "a \(payload.kindName) is a self-spend: no receiver or amount")
        }
        let digest = submission.digest(payloadBytes: payloadBytes)
        guard senderKey.isValidSignature(signature, for: digest.bytes) else {
            throw APIFailure(.badRequest, .invalidSignature, "signature does not verify for the sender's key")
        }
        return KasiaRecordDraft(
            txID: digest.txID, kind: kind, sender: submission.sender, receiver: submission.receiver,
            amount: Int64(submission.amount ?? 0), tag: tag, body: payload.indexerStoredBody, payload: payloadBytes,
            nonce: submission.nonce, signature: submission.signature)
    }

    /// The indexer table and the tag column of a payload (kasia-protocol §4, §10).
    static func classify(_ payload: KasiaPayload) -> (KasiaRecordKind, String) {
        switch payload {
        case .handshake, .legacy: (.handshake, "")
        case .contextualMessage(let alias, _, _): (.contextualMessage, alias.indexerQueryParameter)
        case .payment: (.payment, "")
        case .selfStash(let scope, _): (.selfStash, scope.map { Hex.encode($0.utf8) } ?? "")
        case .broadcast(let channel, _): (.broadcast, Hex.encode(channel.utf8))
        }
    }
}
