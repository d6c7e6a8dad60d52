import CanonicalJSON
import Foundation
import KaspaCrypto
import TandemAPI
import TandemBasics
import TandemServerStore

@testable import TandemServer

/// The body of `POST /kasia/transactions` (issue 11, issue 15 item 4), read as the relay reads
/// it: one strict parse that keeps top-level integers exact, then the signed form through
/// ``RelaySubmissionReader`` or the Kaspa form through Foundation's decoder, then the checks
/// that run before the store. A signed submission that is read re-encodes and reads back to the
/// same submission (64-bit `nonce` and `amount` included); an accepted one verifies again from
/// the row the store would keep, with the key read afresh from its sender; no check traps on
/// any body.
enum RelayBodyFuzz {
    static let limits = JSONParser.Limits(maxBytes: ServerLimits.maxBodyBytes, maxDepth: ServerLimits.maxJSONDepth)

    static func run(_ bytes: [UInt8]) {
        guard let parsed = try? JSONParser(limits: limits).parseKeepingIntegers(bytes) else { return }
        if case .object(let object) = parsed.value, object["transaction"] != nil {
            guard let body = try? JSONDecoder().decode(RelayController.KaspaBody.self, from: Data(bytes)),
                let check = try? RelayKaspaSubmissionCheck(body.transaction)
            else { return }
            _ = try? check.draft()
            return
        }
        guard let submission = try? RelaySubmissionReader.read(parsed.value, integers: parsed.integers) else { return }
        guard let text = try? JSONEncoder().encode(submission),
            let again = try? JSONParser(limits: limits).parseKeepingIntegers(Array(text)),
            let reread = try? RelaySubmissionReader.read(again.value, integers: again.integers)
        else { return invariant(false, "a submission that was read does not encode and read again") }
        invariant(reread == submission, "encode ∘ read changed a submission")
        // The server's cache of parsed sender keys changes no outcome: the same sender and
        // key, or the same refusal, with a cache that earlier inputs have filled.
        let plain = Result { () throws(APIFailure) in try RelaySubmissionCheck(submission) }
        let cached = Result { () throws(APIFailure) in try RelaySubmissionCheck(submission, keys: keys) }
        switch (plain, cached) {
        case (.success(let check), .success(let fromCache)):
            invariant(
                check.sender == fromCache.sender && check.senderKey == fromCache.senderKey,
                "the sender-key cache answered another key")
            if let draft = try? fromCache.draft() { checkAccepted(draft, submission) }
        case (.failure(let refusal), .failure(let fromCache)):
            invariant(
                refusal.status == fromCache.status && refusal.body == fromCache.body,
                "the sender-key cache changed a refusal")
        default:
            invariant(false, "the sender-key cache changed whether a submission passes its checks")
        }
    }

    /// An accepted submission's row: its signature verifies for the key of its sender, read
    /// again from the text (not from the cache), over the digest of the stored fields, and its
    /// id is that digest's.
    static func checkAccepted(_ draft: KasiaRecordDraft, _ submission: RelaySubmission) {
        let digest = RelayDigest(
            sender: draft.sender, receiver: draft.receiver, amount: submission.amount, nonce: draft.nonce,
            payload: draft.payload)
        guard let key = try? KaspaAddress(draft.sender).xOnlyPublicKey(),
            let bytes = Hex.decodeLowercase(draft.signature, byteCount: 64),
            let signature = try? SchnorrSignature(rawRepresentation: bytes)
        else { return invariant(false, "an accepted submission has no readable sender key or signature") }
        invariant(
            key.isValidSignature(signature, for: digest.bytes), "an accepted submission's signature does not verify")
        invariant(draft.txID == digest.txID, "an accepted submission's id is not its digest's")
        invariant(Int64(clamping: submission.amount ?? 0) == draft.amount, "an accepted submission's amount changed")
    }

    /// Shared by every input of a run, as the server shares one (small, so it also evicts).
    static let keys = SenderKeyCache(capacity: 8)
}
