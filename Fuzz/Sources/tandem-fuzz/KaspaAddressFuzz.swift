import KaspaCrypto

/// Address text: decoding either rejects it or yields an address whose encoding decodes back to
/// the same address and re-encodes to the same text (kasia-protocol §2, CashAddr).
enum KaspaAddressFuzz {
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let address = try? KaspaAddress(text) else { return }
        let encoded = address.description
        guard let again = try? KaspaAddress(encoded) else {
            return invariant(false, "an encoded address does not decode")
        }
        invariant(again == address, "decode ∘ encode changed the address")
        invariant(again.description == encoded, "encoding is not a fixed point")
        // Bytes, not Characters: a ':' followed by a combining mark is one grapheme unequal to ":".
        invariant(
            encoded == text.lowercased() || !text.utf8.contains(UInt8(ascii: ":")),
            "accepted text differs from its encoding")
    }
}
