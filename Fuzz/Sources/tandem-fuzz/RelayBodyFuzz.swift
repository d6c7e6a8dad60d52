import CanonicalJSON
import Foundation
import TandemAPI

@testable import TandemServer

/// The body of `POST /kasia/transactions` (issue 11, issue 15 item 4), read as the relay reads
/// it: one strict parse that keeps top-level integers exact, then the signed form through
/// ``RelaySubmissionReader`` or the Kaspa form through Foundation's decoder, then the checks
/// that run before the store. A signed submission that is read re-encodes and reads back to the
/// same submission (64-bit `nonce` and `amount` included); no check traps on any body.
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
            _ = try? fromCache.draft()
        case (.failure(let refusal), .failure(let fromCache)):
            invariant(
                refusal.status == fromCache.status && refusal.body == fromCache.body,
                "the sender-key cache changed a refusal")
        default:
            invariant(false, "the sender-key cache changed whether a submission passes its checks")
        }
    }

    /// Shared by every input of a run, as the server shares one (small, so it also evicts).
    static let keys = SenderKeyCache(capacity: 8)
}
