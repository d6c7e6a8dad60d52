import KaspaCrypto
import TandemBasics
import TestSupport
import Testing

@testable import KasiaProtocol

private let vectors = Result { try KasiaVectors.load() }

@Suite("Kasia cipher")
struct KasiaCipherTests {
    static let encryptionIndices = Array(0..<4)

    @Test("fixed ephemeral key and nonce give the exact sealed bytes", arguments: encryptionIndices)
    func sealMatchesVector(index: Int) throws {
        let v = try vectors.get().encryption[index]
        let recipient = try KaspaAddress(v.recipient_address).publicKey()
        let ephemeral = try PrivateKey(hex: v.ephemeral_private_key)
        #expect(Hex.encode(ephemeral.publicKey.compressedRepresentation) == v.ephemeral_public_key)

        let sealed = try KasiaCipher.seal(
            Array(v.plaintext_utf8.utf8), to: recipient, ephemeralKey: ephemeral, nonce: try Hex.decode(v.nonce))

        #expect(Hex.encode(sealed) == v.sealed_hex)
        #expect(sealed.count == v.sealed_len)
    }

    @Test("every listed recipient key opens the vector", arguments: encryptionIndices)
    func openMatchesVector(index: Int) throws {
        let all = try vectors.get()
        let v = all.encryption[index]
        #expect(!v.decrypts_with.isEmpty)
        for name in v.decrypts_with {
            let key = try PrivateKey(hex: try #require(all.key(named: name)).private_key)
            #expect(try KasiaCipher.open(try Hex.decode(v.sealed_hex), using: key) == v.plaintext_utf8)
        }
    }

    @Test("malformed sealed messages are rejected with the reference's reason")
    func malformedSealedRejected() throws {
        let cases = try vectors.get().malformed.filter { $0.input_kind == "sealed" }
        #expect(cases.count >= 8)
        for c in cases {
            let key = try PrivateKey(hex: try #require(c.private_key))
            let sealed = try Hex.decode(try #require(c.sealed_hex))
            let error = #expect(throws: KasiaCipherError.self, "\(c.case)") { try KasiaCipher.open(sealed, using: key) }
            #expect(error?.description == c.error, "\(c.case)")
        }
    }

    @Test func refusesScriptHashRecipients() throws {
        for c in try vectors.get().malformed where c.input_kind == "encrypt" {
            let address = try KaspaAddress(try #require(c.address))
            let error = #expect(throws: KasiaCipherError.self) { try KasiaCipher.seal("hi", to: address) }
            #expect(error?.description == c.error)
        }
    }

    @Test("open(seal(m)) == m for random keys and texts, including ECDSA recipients")
    func roundTripsRandomMessages() throws {
        let samples = ["", "gm", "odd-parity é 🔐", String(repeating: "x", count: 4096)]
        for text in samples {
            let recipient = PrivateKey.generate()
            for address in [
                KaspaAddress(publicKey: recipient.xOnlyPublicKey),
                KaspaAddress(ecdsaPublicKey: recipient.publicKey, network: .testnet),
            ] {
                let sealed = try KasiaCipher.seal(text, to: address)
                #expect(sealed.count == KasiaCipher.minimumSealedLength + text.utf8.count)
                #expect(try KasiaCipher.open(sealed, using: recipient) == text)
            }
        }
    }

    @Test("flipping any byte of a sealed message makes open fail with an error")
    func everyTamperedByteIsRejected() throws {
        let recipient = PrivateKey.generate()
        let plaintext = "a message of moderate length"
        let sealed = try KasiaCipher.seal(plaintext, to: recipient.publicKey)
        for index in sealed.indices {
            for mask: UInt8 in [0x01, 0x02, 0x80, 0xff] {
                var tampered = sealed
                tampered[index] ^= mask
                if index == KasiaCipher.nonceLength && mask == 0x01 {
                    // 02 <-> 03 names the same x, and Kasia keys derive from x alone (spec §2–3),
                    // so this one bit is not authenticated by any client; it cannot change the text.
                    #expect(try KasiaCipher.open(tampered, using: recipient) == plaintext)
                    continue
                }
                #expect(throws: KasiaCipherError.self, "byte \(index) mask \(mask)") {
                    try KasiaCipher.open(tampered, using: recipient)
                }
            }
        }
        for length in [0, 1, 45, 60] {
            #expect(throws: KasiaCipherError.sealedMessageTooShort(length)) {
                try KasiaCipher.open(sealed.prefix(length), using: recipient)
            }
        }
    }

    @Test func sealingTwiceUsesFreshEphemeralKeysAndNonces() throws {
        let recipient = PrivateKey.generate().publicKey
        let first = try KasiaCipher.seal("same", to: recipient)
        let second = try KasiaCipher.seal("same", to: recipient)
        #expect(first.prefix(45) != second.prefix(45))
    }
}
