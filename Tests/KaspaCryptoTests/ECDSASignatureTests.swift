import KaspaCrypto
import TandemBasics
import Testing

/// ECDSA through libsecp256k1, the variant Kaspa's `OP_CHECKSIGECDSA` verifies (issue 15).
@Suite("secp256k1 ECDSA")
struct ECDSASignatureTests {
    /// SHA-256("Satoshi Nakamoto") signed by key 1: the widely published RFC 6979 answer
    /// (lower s), also accepted by an independent verifier (Python `cryptography`).
    static let digest = "a0dc65ffca799873cbea0ac274015b9526505daaaed385155425f7337704883e"
    static let signature =
        "934b1ea10a4b3c1757e2b0c017d0b6143ce3c9a7e6a4a49860d7a6ab210ee3d8"
        + "2442ce9d2b916064108014783e923ec36b49743e2ffa1c4496f01a512aafd9e5"
    static let order = try? Hex.decode("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141")

    @Test func signsDeterministicallyWithRFC6979AndVerifies() throws {
        let key = try PrivateKey(hex: String(repeating: "0", count: 63) + "1")
        let digest = try Hex.decode(Self.digest)
        let signature = try key.ecdsaSignature(for: digest)
        #expect(Hex.encode(signature.rawRepresentation) == Self.signature)
        #expect(key.publicKey.isValidECDSASignature(signature, for: digest))
    }

    @Test func refusesAnotherDigestKeyFlippedBitHighSAndOutOfRange() throws {
        let key = PrivateKey.generate()
        let digest = (0..<32).map { UInt8($0) }
        let signature = try key.ecdsaSignature(for: digest)
        #expect(key.publicKey.isValidECDSASignature(signature, for: digest))
        var other = digest
        other[0] ^= 1
        #expect(!key.publicKey.isValidECDSASignature(signature, for: other))
        #expect(!PrivateKey.generate().publicKey.isValidECDSASignature(signature, for: digest))
        var flipped = signature.rawRepresentation
        flipped[40] ^= 0x10
        #expect(!key.publicKey.isValidECDSASignature(try ECDSASignature(rawRepresentation: flipped), for: digest))
        // (r, n − s) is the same signature in its upper form; a node refuses it, as libsecp256k1 does.
        let order = try #require(Self.order)
        let highS =
            Array(signature.rawRepresentation[0..<32]) + Self.subtract(order, Array(signature.rawRepresentation[32...]))
        #expect(!key.publicKey.isValidECDSASignature(try ECDSASignature(rawRepresentation: highS), for: digest))
        let overflow = order + Array(signature.rawRepresentation[32...])
        #expect(!key.publicKey.isValidECDSASignature(try ECDSASignature(rawRepresentation: overflow), for: digest))
        #expect(!key.publicKey.isValidECDSASignature(signature, for: digest.prefix(31)))
        #expect(throws: KaspaKeyError.signatureLength(63)) { try ECDSASignature(rawRepresentation: highS.prefix(63)) }
        #expect(throws: KaspaKeyError.messageLength(31)) { try key.ecdsaSignature(for: digest.prefix(31)) }
    }

    /// `a − b` for 32-byte big-endian numbers with `a ≥ b` (test arithmetic, not crypto).
    static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in (0..<32).reversed() {
            var value = Int(a[index]) - Int(b[index]) - borrow
            borrow = value < 0 ? 1 : 0
            if value < 0 { value += 256 }
            result[index] = UInt8(value)
        }
        return result
    }
}
