import KaspaCrypto
import TandemBasics
import TandemTesting
import Testing

@testable import KaspaTransaction

/// ECDSA inputs: signed over the ECDSA sighash and verified with libsecp256k1 as a node's
/// `OP_CHECKSIGECDSA` does; pay-to-script-hash inputs are refused for want of a script engine.
@Suite("Kaspa ECDSA and P2SH inputs (issue 15)")
struct KaspaTxECDSATests {
    static let key = try? PrivateKey(hex: "6c1f7d4e3bb0f4a8a4c6e77b5d2f0b9e1a3d5c7e9f1b3d5f7a9c1e3b5d7f9a1c")

    /// A two-input payment: input 0 locked to the key's ECDSA script, input 1 to its Schnorr one.
    static func mixed(key: PrivateKey) throws -> KaspaTransaction {
        var random = SeededRandom(seed: 33)
        let schnorr = KaspaScriptPublicKey(address: KaspaAddress(publicKey: key.xOnlyPublicKey))
        let ecdsa = KaspaScriptPublicKey(address: KaspaAddress(ecdsaPublicKey: key.publicKey))
        let entries = [ecdsa, schnorr].map { script in
            KaspaUtxoEntry(
                outpoint: KaspaOutpoint(
                    transactionID: (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }, index: 0),
                amount: 90_000_000, scriptPublicKey: script, blockDAAScore: 5)
        }
        let recipient = KaspaScriptPublicKey(address: KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey))
        return KaspaTransaction(
            inputs: entries.enumerated().map {
                KaspaTransactionInput(previousOutpoint: $1.outpoint, sequence: UInt64($0), utxo: $1)
            },
            outputs: [
                KaspaTransactionOutput(value: 120_000_000, scriptPublicKey: recipient),
                KaspaTransactionOutput(value: 59_000_000, scriptPublicKey: schnorr),
            ],
            payload: Array("pay:ecdsa".utf8))
    }

    @Test("an ECDSA input is signed over the ECDSA sighash and verifies beside a Schnorr one")
    func signsAndVerifiesECDSAInputs() throws {
        let key = try #require(Self.key)
        let signed = try Self.mixed(key: key).signed(with: key)
        try signed.verifySignatures()
        let hasher = try KaspaSigHasher(signed)
        let script = signed.inputs[0].signatureScript
        #expect(script.count == 66 && script[0] == 0x41 && script[65] == KaspaSigHashType.all.rawValue)
        let signature = try ECDSASignature(rawRepresentation: script[1..<65])
        #expect(key.publicKey.isValidECDSASignature(signature, for: try hasher.ecdsaHash(input: 0)))
        #expect(!key.publicKey.isValidECDSASignature(signature, for: try hasher.schnorrHash(input: 0)))
    }

    @Test("a bad ECDSA signature, an ECDSA input of another key and a P2SH input are refused")
    func refusals() throws {
        let key = try #require(Self.key)
        let signed = try Self.mixed(key: key).signed(with: key)
        var flipped = signed
        flipped.inputs[0].signatureScript[20] ^= 0x01
        #expect(throws: KaspaTransactionError.badSignature(input: 0)) { try flipped.verifySignatures() }
        var altered = signed
        altered.outputs[0].value -= 1
        #expect(throws: KaspaTransactionError.badSignature(input: 0)) { try altered.verifySignatures() }
        var foreign = signed
        foreign.inputs[0].utxo?.scriptPublicKey = KaspaScriptPublicKey(
            address: KaspaAddress(ecdsaPublicKey: PrivateKey.generate().publicKey))
        #expect(throws: KaspaTransactionError.badSignature(input: 0)) { try foreign.verifySignatures() }
        var scriptHash = signed
        scriptHash.inputs[1].utxo?.scriptPublicKey = KaspaScriptPublicKey(
            address: try KaspaAddress(
                network: .mainnet, version: .scriptHash, payload: [UInt8](repeating: 7, count: 32)))
        #expect(throws: KaspaTransactionError.scriptHashUnsupported(input: 1)) { try scriptHash.verifySignatures() }
        #expect(throws: KaspaTransactionError.notOurInput(input: 0)) {
            try Self.mixed(key: key).signed(with: PrivateKey.generate())
        }
    }
}
