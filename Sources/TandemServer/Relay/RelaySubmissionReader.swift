import CanonicalJSON
import TandemAPI

/// Builds a ``RelaySubmission`` from a body parsed once by the strict parser (issue 11
/// "Figures": one decode per submission).
///
/// The strict parse is the only decode, so a submission keeps every refusal of I-JSON
/// (duplicate member names, lone surrogates, invalid UTF-8, nesting) as the same 400 it was
/// before. `nonce` and `amount` are 64-bit integers, beyond the exactness of the parser's
/// doubles, so they come from the parser's exact top-level integers
/// (`JSONParser.parseKeepingIntegers`). A member of the wrong type is a zod-style issue
/// (`[body.nonce] Invalid input: expected UInt64, received string`), all of them in one 400.
enum RelaySubmissionReader {
    static func read(_ value: JSONValue, integers: [String: UInt64]) throws -> RelaySubmission {
        var fields = BodyFields<RelaySubmission.Field>(JSONBody(value: value))
        guard fields.requireObject() else { throw APIFailure.validation(fields.issues) }
        let payload = fields.string(.payload)
        let sender = fields.string(.sender)
        let receiver = fields.optionalString(.receiver)
        let amount = unsigned(.amount, required: false, in: &fields, integers: integers)
        let nonce = unsigned(.nonce, required: true, in: &fields, integers: integers)
        let signature = fields.string(.signature)
        try fields.throwIfInvalid()
        guard let payload, let sender, let nonce, let signature else { throw APIFailure.validation(fields.issues) }
        return RelaySubmission(
            payload: payload, sender: sender, receiver: receiver, amount: amount, nonce: nonce, signature: signature)
    }

    /// A non-negative integer up to `UInt64.max`; absent or null is nil when not `required`.
    private static func unsigned(
        _ key: RelaySubmission.Field, required: Bool, in fields: inout BodyFields<RelaySubmission.Field>,
        integers: [String: UInt64]
    ) -> UInt64? {
        let received: String
        switch fields.value(key) {
        case .none:
            guard required else { return nil }
            received = "undefined"
        case .null?:
            guard required else { return nil }
            received = "null"
        case .number?:
            if let exact = integers[key.stringValue] { return exact }
            fields.addIssue(key, "Invalid input: expected an integer from 0 to \(UInt64.max)")
            return nil
        case let other?:
            received = BodyFields<RelaySubmission.Field>.kind(other)
        }
        fields.addIssue(key, "Invalid input: expected UInt64, received \(received)")
        return nil
    }
}
