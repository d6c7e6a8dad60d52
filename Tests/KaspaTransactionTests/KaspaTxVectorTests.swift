import Foundation
import KaspaCrypto
import TandemBasics
import TestSupport
import Testing

@testable import KaspaTransaction

private let vectors = Result { try KaspaTxVectors.load() }

/// Decodes a transaction section of the vectors with the model under test.
func vectorTransaction(_ index: Int, _ field: String) throws -> KaspaTransaction {
    try JSONDecoder().decode(KaspaTransaction.self, from: KaspaTxVectors.rawJSON(transaction: index, field: field))
}

/// The wallet key of a vector address.
func vectorKey(for address: String) throws -> PrivateKey {
    let script = try #require(try vectors.get().scripts.first { $0.address == address })
    return try PrivateKey(hex: script.private_key)
}

@Suite("Kaspa transactions against the rusty-kaspa SDK vectors (issue 15)")
struct KaspaTxVectorTests {
    static let indices = Array(0..<7)

    @Test("scripts of Schnorr and ECDSA addresses")
    func scripts() throws {
        for v in try vectors.get().scripts {
            let key = try PrivateKey(hex: v.private_key)
            let schnorr = KaspaScriptPublicKey(address: try KaspaAddress(v.address))
            #expect(Hex.encode(schnorr.script) == v.scriptPublicKey.script && schnorr.version == 0)
            #expect(schnorr == KaspaScriptPublicKey(address: KaspaAddress(publicKey: key.xOnlyPublicKey)))
            let ecdsa = KaspaScriptPublicKey(address: try KaspaAddress(v.address_ecdsa))
            #expect(Hex.encode(ecdsa.script) == v.scriptPublicKey_ecdsa.script)
            #expect(schnorr.address(network: .mainnet)?.description == v.address)
            #expect(ecdsa.address(network: .mainnet)?.description == v.address_ecdsa)
        }
    }

    @Test("id, Schnorr and ECDSA sighashes, masses and fees", arguments: indices)
    func transaction(index: Int) throws {
        let v = try vectors.get().transactions[index]
        let unsigned = try vectorTransaction(index, "unsignedTx")
        let signed = try vectorTransaction(index, "signedExample")
        #expect(Hex.encode(unsigned.id) == v.id)
        #expect(Hex.encode(signed.id) == v.id)
        #expect(Hex.encode(unsigned.payload) == v.payloadHex)
        let hasher = try KaspaSigHasher(unsigned)
        for input in unsigned.inputs.indices {
            #expect(Hex.encode(try hasher.schnorrHash(input: input)) == v.sighashesSchnorrAll[input])
            #expect(Hex.encode(try hasher.ecdsaHash(input: input)) == v.sighashesEcdsaAll[input])
        }
        let unsignedMass = KaspaMass(of: unsigned)
        #expect(unsignedMass.mass == v.massUnsigned)
        #expect(unsignedMass.fee == v.feeUnsigned)
        #expect(unsignedMass.storageMass == v.storageMass)
        let signedMass = KaspaMass(of: signed)
        #expect(signedMass.mass == v.massSigned)
        #expect(signedMass.fee == v.feeSigned)
        #expect(KaspaMass(submitting: unsigned) == signedMass)
        #expect(v.inputTotal - v.outputTotal == v.feeSigned)
        try signed.verifySignatures()
    }

    @Test("our signatures verify with the vector sighash and keep the id", arguments: indices)
    func signing(index: Int) throws {
        let v = try vectors.get().transactions[index]
        let unsigned = try vectorTransaction(index, "unsignedTx")
        let key = try vectorKey(for: try #require(unsigned.inputs.first?.utxo?.address?.description))
        let signed = try unsigned.signed(with: key)
        #expect(Hex.encode(signed.id) == v.id)
        try signed.verifySignatures()
        for (input, sighash) in v.sighashesSchnorrAll.enumerated() {
            let script = signed.inputs[input].signatureScript
            #expect(script.count == 66 && script.first == 0x41 && script.last == 0x01)
            let signature = try SchnorrSignature(rawRepresentation: script[1..<65])
            #expect(key.xOnlyPublicKey.isValidSignature(signature, for: try Hex.decode(sighash)))
        }
        #expect(KaspaMass(of: signed).fee == v.feeSigned)
    }

    @Test("JSON round trip in the SDK's to_dict form", arguments: indices)
    func roundTrip(index: Int) throws {
        let signed = try vectorTransaction(index, "signedExample")
        let again = try JSONDecoder().decode(KaspaTransaction.self, from: JSONEncoder().encode(signed))
        #expect(again == signed)
        let original = try JSONSerialization.jsonObject(
            with: KaspaTxVectors.rawJSON(transaction: index, field: "signedExample"))
        let ours = try JSONSerialization.jsonObject(with: JSONEncoder().encode(signed))
        #expect((original as? NSDictionary) == (ours as? NSDictionary))
    }

    @Test("the builder makes each vector transaction from its UTXOs", arguments: indices)
    func builderReproducesVectors(index: Int) throws {
        let v = try vectors.get().transactions[index]
        let unsigned = try vectorTransaction(index, "unsignedTx")
        let utxos = try unsigned.utxoEntries()
        let key = try vectorKey(for: try #require(utxos.first?.address?.description))
        let builder = KaspaTransactionBuilder(key: key)
        let payload = try Hex.decode(v.payloadHex)
        let request: KaspaTransactionBuilder.Request
        if v.outputs.count == 2 {
            request = .init(
                recipient: try KaspaAddress(v.outputs[0].address), amount: v.outputs[0].value, payload: payload)
        } else {
            request = .selfSpend(payload: payload)
        }
        let assembled = try builder.assemble(request, inputs: utxos)
        #expect(Hex.encode(assembled.id) == v.id)
        let built =
            v.kind == "compaction" ? try builder.compaction(utxos: utxos) : try builder.build(request, utxos: utxos)
        try built.verifySignatures()
        if utxos.count == 1 || v.kind == "compaction" {
            // Selection has one choice here, so the builder must make the SDK's transaction.
            #expect(Hex.encode(built.id) == v.id)
            #expect(KaspaMass(of: built).fee == v.feeSigned)
        } else {
            let spent = try built.utxoEntries().reduce(UInt64(0)) { $0 + $1.amount }
            #expect(spent - built.outputs.reduce(UInt64(0)) { $0 + $1.value } == KaspaMass(of: built).fee)
        }
    }

    @Test("an output too small for its inputs is refused for its storage mass")
    func rejectsOverMass() throws {
        let reject = try #require(try vectors.get().rejects.first)
        let utxos = try JSONDecoder().decode(
            [KaspaUtxoEntry].self, from: KaspaTxVectors.rawJSON(transaction: 0, field: "utxos", section: "rejects"))
        let transaction = KaspaTransaction(
            inputs: utxos.map(KaspaTransactionInput.init(spending:)),
            outputs: try reject.outputs.map {
                KaspaTransactionOutput(value: $0.value, scriptPublicKey: .init(address: try KaspaAddress($0.address)))
            })
        let mass = KaspaMass(submitting: transaction)
        #expect(mass.storageMass == reject.storageMass)
        #expect(mass.fee == nil)
        #expect(KaspaMass.maximumStandardMass == reject.maximumStandardMass)
        let key = try vectorKey(for: try #require(utxos.first?.address?.description))
        let request = KaspaTransactionBuilder.Request.payment(
            to: try KaspaAddress(reject.outputs[0].address), amount: reject.outputs[0].value)
        #expect {
            try KaspaTransactionBuilder(key: key).build(request, utxos: utxos)
        } throws: { error in
            guard case .storageMassTooHigh(let mass, let limit)? = error as? KaspaBuildError else { return false }
            return mass > limit && limit == 100_000
        }
    }
}
