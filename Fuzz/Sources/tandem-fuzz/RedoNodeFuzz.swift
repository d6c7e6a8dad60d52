import CanonicalJSON
import RedoProtocol

/// Node text: validation either rejects it with a code or yields a node that validates again
/// from its canonical text with the same id, both standalone and with a required signature
/// (spec §6.2); a node without a signature never passes the required policy.
enum RedoNodeFuzz {
    static func run(_ bytes: [UInt8]) {
        guard let node = try? NodeValidator().validate(bytes: bytes) else {
            invariant(
                (try? NodeValidator(signaturePolicy: .required).validate(bytes: bytes)) == nil,
                "required policy accepted what the standalone check rejected")
            return
        }
        let strict = try? NodeValidator(signaturePolicy: .required).validate(bytes: bytes)
        invariant((strict != nil) == (node.signature != nil), "required policy disagrees with the signature's presence")
        guard let text = try? CanonicalJSON.canonicalBytes(of: .object(node.json)) else {
            return invariant(false, "a valid node has no canonical text")
        }
        invariant((try? NodeValidator().validate(bytes: text))?.id == node.id, "canonical text validates differently")
        invariant(
            (try? ContentAddress.id(of: node.json)) == node.id, "the streamed content id disagrees with validation")
        invariant(
            (try? NodeValidator().revalidate(verifiedBytes: text))?.id == node.id,
            "the store's read-back path disagrees with validation")
    }
}
