import KasiaProtocol

/// Transaction payload bytes: parsing either rejects them or yields a payload whose encoding
/// parses back to the same payload and is a fixed point (kasia-protocol §4).
enum KasiaPayloadFuzz {
    static func run(_ bytes: [UInt8]) {
        guard let payload = try? KasiaPayload(parsing: bytes) else { return }
        let encoded = payload.encoded
        invariant((try? KasiaPayload(parsing: encoded)) == payload, "parse ∘ encode changed the payload")
        invariant((try? KasiaPayload(parsing: encoded))?.encoded == encoded, "encoding is not a fixed point")
    }
}
