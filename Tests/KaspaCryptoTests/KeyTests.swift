import KaspaCrypto
import TandemBasics
import TandemTesting
import TestSupport
import Testing

private let vectors = Result { try KasiaVectors.load() }

@Suite("secp256k1 keys, Schnorr and ECDH")
struct KeyTests {
    static let order = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141"

    @Test(
        "private keys outside 1..<n are rejected",
        arguments: [
            String(repeating: "0", count: 64),
            order,
            "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        ])
    func rejectsOutOfRangeScalars(hex: String) {
        #expect(throws: KaspaKeyError.privateKeyOutOfRange) { try PrivateKey(hex: hex) }
    }

    @Test func acceptsTheLargestScalarAndRoundTripsHex() throws {
        let key = try PrivateKey(hex: "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140")
        #expect(key.hexRepresentation == "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140")
        #expect(try PrivateKey(hex: key.hexRepresentation.uppercased()) == key)
    }

    @Test func rejectsBadLengthsAndNonHex() {
        #expect(throws: KaspaKeyError.privateKeyLength(31)) {
            try PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 31))
        }
        #expect(throws: KaspaKeyError.self) { try PrivateKey(hex: "zz" + String(repeating: "0", count: 62)) }
        #expect(throws: KaspaKeyError.self) { try PrivateKey(hex: "abc") }
        #expect(throws: KaspaKeyError.xOnlyKeyLength(33)) {
            try XOnlyPublicKey(rawRepresentation: [UInt8](repeating: 2, count: 33))
        }
        #expect(throws: KaspaKeyError.self) {
            try PublicKey(compressedRepresentation: [0x04] + [UInt8](repeating: 1, count: 32))
        }
    }

    @Test func generatedKeysAreDistinctAndValid() throws {
        let keys = (0..<16).map { _ in PrivateKey.generate() }
        #expect(Set(keys.map(\.hexRepresentation)).count == 16)
        for key in keys {
            #expect(try PrivateKey(rawRepresentation: key.rawRepresentation) == key)
            #expect(try XOnlyPublicKey(rawRepresentation: key.xOnlyPublicKey.rawRepresentation) == key.xOnlyPublicKey)
        }
    }

    @Test func schnorrSignaturesVerifyOnlyForTheirKeyAndMessage() throws {
        var generator = SeededRandom(seed: 56)
        for _ in 0..<8 {
            let key = PrivateKey.generate()
            let other = PrivateKey.generate()
            let message = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let signature = try key.signature(for: message)
            #expect(key.xOnlyPublicKey.isValidSignature(signature, for: message))
            #expect(!other.xOnlyPublicKey.isValidSignature(signature, for: message))
            var otherMessage = message
            otherMessage[0] ^= 1
            #expect(!key.xOnlyPublicKey.isValidSignature(signature, for: otherMessage))
            for index in [0, 31, 32, 63] {
                var bytes = signature.rawRepresentation
                bytes[index] ^= 0x80
                #expect(
                    !key.xOnlyPublicKey.isValidSignature(try SchnorrSignature(rawRepresentation: bytes), for: message))
            }
            #expect(!key.xOnlyPublicKey.isValidSignature(signature, for: message.dropLast()))
        }
    }

    @Test func fixedAuxiliaryRandomnessGivesDeterministicSignatures() throws {
        let key = PrivateKey.generate()
        let message = [UInt8](repeating: 7, count: 32)
        let aux = [UInt8](repeating: 0, count: 32)
        #expect(
            try key.signature(for: message, auxiliaryRandomness: aux)
                == key.signature(for: message, auxiliaryRandomness: aux))
        #expect(throws: KaspaKeyError.messageLength(31)) { try key.signature(for: message.dropLast()) }
    }

    @Test("ECDH returns the raw x coordinate, not libsecp256k1's default hash")
    func ecdhMatchesVectorsAndIsSymmetric() throws {
        for pair in try vectors.get().alias_pairs {
            let a = try PrivateKey(hex: try #require(try vectors.get().key(named: pair.A)).private_key)
            let b = try PrivateKey(hex: try #require(try vectors.get().key(named: pair.B)).private_key)
            let ab = try a.sharedSecretFromKeyAgreement(with: try KaspaAddress(pair.B_address).publicKey())
            let ba = try b.sharedSecretFromKeyAgreement(with: try KaspaAddress(pair.A_address).publicKey())
            #expect(Hex.encode(ab.rawRepresentation) == pair.ecdh_x)
            #expect(ab == ba)
            #expect(Hex.encode(ab.rawRepresentation) != pair.libsecp256k1_default_ecdh_output_for_contrast)
        }
    }

    @Test func bothParitiesOfOneXShareAnAddress() throws {
        let one = try PrivateKey(hex: try #require(try vectors.get().key(named: "one")).private_key)
        let minusOne = try PrivateKey(hex: try #require(try vectors.get().key(named: "n_minus_1")).private_key)
        #expect(one.publicKey != minusOne.publicKey)
        #expect(KaspaAddress(publicKey: one.xOnlyPublicKey) == KaspaAddress(publicKey: minusOne.xOnlyPublicKey))
    }
}
