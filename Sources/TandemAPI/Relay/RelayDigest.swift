import Crypto
import TandemBasics

/// What the sender of a relay submission signs, and the transaction id derived from it
/// (issue 11 item 1). The one construction, shared by the client that signs and the server
/// that verifies, so the two can never drift.
///
/// `digest = SHA-256("tandem-relay/v1\n" ‖ sender ‖ "\n" ‖ (receiver or "") ‖ "\n" ‖
/// decimal(amount or 0) ‖ "\n" ‖ decimal(nonce) ‖ "\n" ‖ payload bytes)` and
/// `tx_id = lowercase hex(SHA-256(digest))`.
public struct RelayDigest: Sendable, Equatable {
    /// The 32 bytes a BIP-340 signature covers.
    public let bytes: [UInt8]

    /// The domain tag that keeps relay signatures from being valid for anything else.
    public static let domain = "tandem-relay/v1\n"

    public init(sender: String, receiver: String?, amount: UInt64?, nonce: UInt64, payload: some Collection<UInt8>) {
        var hasher = SHA256()
        let head =
            Self.domain + sender + "\n" + (receiver ?? "") + "\n" + String(amount ?? 0) + "\n" + String(nonce) + "\n"
        hasher.update(data: Array(head.utf8))
        hasher.update(data: Array(payload))
        bytes = Array(hasher.finalize())
    }

    /// The submission's transaction id: 64 lowercase hex characters, the same for every
    /// resubmission of the same signed content.
    public var txID: String { Hex.encode(SHA256.hash(data: bytes)) }
}
