public import KaspaCrypto
import TandemBasics

/// The body of `POST /kasia/transactions` (issue 11 item 1): a Kasia transaction payload
/// signed by its sender, for the relay to store and fan out.
///
/// Wire form: `{"payload": hex, "sender": address, "receiver": address?, "amount": sompi?,
/// "nonce": uint64, "signature": hex}`. `receiver` and `amount` are the Kaspa transaction's
/// first output: present for handshakes (also legacy `ciph_msg:` bodies) and payments,
/// absent for contextual messages, self-stashes and broadcasts.
public struct RelaySubmission: RequestBody {
    /// Lowercase hex of the exact payload bytes (`ciph_msg:…` or `kchat:…`, kasia-protocol §4, §16).
    public var payload: String
    /// The sender's version-0 (Schnorr) Kaspa address; its key signs.
    public var sender: String
    public var receiver: String?
    /// Sompi of the first output; nil is the same as 0 in the digest.
    public var amount: UInt64?
    /// Makes two submissions of the same payload distinct transactions.
    public var nonce: UInt64
    /// Lowercase hex of the 64-byte BIP-340 signature over ``digest``.
    public var signature: String

    public init(payload: String, sender: String, receiver: String?, amount: UInt64?, nonce: UInt64, signature: String) {
        self.payload = payload
        self.sender = sender
        self.receiver = receiver
        self.amount = amount
        self.nonce = nonce
        self.signature = signature
    }

    /// Builds and signs a submission with `key`, whose Schnorr address on `network` is the sender.
    public static func signed(
        payload: [UInt8], by key: PrivateKey, network: KaspaNetwork = .mainnet,
        receiver: KaspaAddress? = nil, amount: UInt64? = nil, nonce: UInt64
    ) throws(KaspaKeyError) -> RelaySubmission {
        let sender = KaspaAddress(publicKey: key.xOnlyPublicKey, network: network).description
        let digest = RelayDigest(
            sender: sender, receiver: receiver?.description, amount: amount, nonce: nonce, payload: payload)
        let signature = try key.signature(for: digest.bytes)
        return RelaySubmission(
            payload: Hex.encode(payload), sender: sender, receiver: receiver?.description, amount: amount,
            nonce: nonce, signature: Hex.encode(signature.rawRepresentation))
    }

    /// The digest of this submission's fields, with `payloadBytes` the decoded ``payload``.
    public func digest(payloadBytes: [UInt8]) -> RelayDigest {
        RelayDigest(sender: sender, receiver: receiver, amount: amount, nonce: nonce, payload: payloadBytes)
    }

    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case payload, sender, receiver, amount, nonce, signature
    }

    public typealias Field = CodingKeys
}
