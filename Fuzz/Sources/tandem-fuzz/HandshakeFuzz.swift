import KasiaProtocol

/// Handshake plaintext (peer-controlled, kasia-protocol §5.1): decoding either rejects it or
/// yields a payload that our own JSON text decodes back to.
enum HandshakeFuzz {
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let payload = try? HandshakePayload(decoding: text) else { return }
        invariant(
            (try? HandshakePayload(decoding: payload.jsonText)) == payload, "decode ∘ encode changed the handshake")
    }
}
