import Foundation
import KasiaProtocol
import TandemBasics

/// Transaction payload bytes: parsing either rejects them or yields a payload, under its root,
/// whose encoding parses back to the same payload and root and is a fixed point (kasia-protocol
/// §4, §16).
///
/// One exception is the protocol's own: a `comm:` body is read as hex when it is all hex digits
/// of even length, else as base64 (Kasia's rule). A base64 text made only of hex digits therefore
/// reads back as hex. For a real sealed body (at least 61 bytes, 84 base64 characters) the
/// chance is (22/64)^84, below 10^-38; the fuzzer found it with a 3-byte body.
enum KasiaPayloadFuzz {
    static func run(_ bytes: [UInt8]) {
        guard let envelope = try? KasiaEnvelope(parsing: bytes) else { return }
        let encoded = envelope.encoded
        if case .contextualMessage(_, let sealed, .base64) = envelope.payload,
            Self.readsAsHex(Array(Data(sealed).base64EncodedString().utf8))
        {
            return
        }
        invariant((try? KasiaEnvelope(parsing: encoded)) == envelope, "parse ∘ encode changed the payload")
        invariant((try? KasiaEnvelope(parsing: encoded))?.encoded == encoded, "encoding is not a fixed point")
    }

    static func readsAsHex(_ text: [UInt8]) -> Bool {
        text.count % 2 == 0 && text.allSatisfy(Hex.isDigit)
    }
}
