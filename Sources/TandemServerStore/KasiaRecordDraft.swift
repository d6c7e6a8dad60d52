/// A relayed Kasia transaction before the store gives it its `block_time`.
public struct KasiaRecordDraft: Sendable, Equatable {
    /// 64 lowercase hex characters, `SHA-256(digest)` (issue 11 item 1).
    public var txID: String
    public var kind: KasiaRecordKind
    /// Canonical text of the signer's address (the owner of a self-stash).
    public var sender: String
    /// Canonical text of the first output's address, for handshakes and payments.
    public var receiver: String?
    /// Sompi of the first output; 0 when absent.
    public var amount: Int64
    /// Lowercase hex of the alias (contextual messages), scope (self-stash; "" without scope)
    /// or channel (broadcast) bytes; "" for the other kinds.
    public var tag: String
    /// What the indexer stores and serves in hex: the bytes after the operation prefix.
    public var body: [UInt8]
    /// The whole payload, with `nonce` and `signature`, so anyone can re-verify a row.
    public var payload: [UInt8]
    public var nonce: UInt64
    /// Lowercase hex of the BIP-340 signature.
    public var signature: String

    public init(
        txID: String, kind: KasiaRecordKind, sender: String, receiver: String?, amount: Int64, tag: String,
        body: [UInt8], payload: [UInt8], nonce: UInt64, signature: String
    ) {
        self.txID = txID
        self.kind = kind
        self.sender = sender
        self.receiver = receiver
        self.amount = amount
        self.tag = tag
        self.body = body
        self.payload = payload
        self.nonce = nonce
        self.signature = signature
    }
}
