import Foundation
import KaspaCrypto
import KaspaTransaction
import TandemBasics
import TestSupport
import Testing

private let vectors = Result { try KaspaTxVectors.load() }

/// `tandem kaspa script|tx …` (issue 15 item 3) on the real binary, against the SDK's vectors.
@Suite("tandem kaspa script / tx")
struct KaspaTxCLITests {
    static func file(_ data: Data, _ name: String) throws -> String {
        let url = try TandemProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let path = url.appendingPathComponent(name).path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    static func json(_ output: TandemProcess.Output) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
    }

    @Test func scriptPrintsVersionAndScript() async throws {
        let script = try #require(try vectors.get().scripts.first)
        let schnorr = try Self.json(try await TandemProcess.run("kaspa", "script", script.address, "--json"))
        #expect(schnorr["version"] as? Int == 0 && schnorr["script"] as? String == script.scriptPublicKey.script)
        let ecdsa = try Self.json(try await TandemProcess.run("kaspa", "script", script.address_ecdsa, "--json"))
        #expect(ecdsa["script"] as? String == script.scriptPublicKey_ecdsa.script)
        let bad = try await TandemProcess.run("kaspa", "script", "kaspa:nope", "--json")
        #expect(bad.status == 1 && bad.stderrLines.count == 1)
    }

    @Test func idSighashAndMassMatchTheSDK() async throws {
        let v = try vectors.get()
        for index in [0, 2, 5] {
            let tx = v.transactions[index]
            let path = try Self.file(try KaspaTxVectors.rawJSON(transaction: index, field: "unsignedTx"), "tx.json")
            #expect(try await TandemProcess.run("kaspa", "tx", "id", path).stdoutText == tx.id + "\n")
            for (input, sighash) in tx.sighashesSchnorrAll.enumerated() {
                let schnorr = try await TandemProcess.run("kaspa", "tx", "sighash", path, "--input", String(input))
                #expect(schnorr.stdoutText == sighash + "\n")
                let ecdsa = try await TandemProcess.run(
                    "kaspa", "tx", "sighash", path, "--input", String(input), "--type", "all", "--ecdsa")
                #expect(ecdsa.stdoutText == tx.sighashesEcdsaAll[input] + "\n")
            }
            let mass = try Self.json(try await TandemProcess.run("kaspa", "tx", "mass", path, "--json"))
            #expect(mass["mass"] as? UInt64 == tx.massSigned)
            #expect(mass["fee"] as? UInt64 == tx.feeSigned)
            #expect(mass["storageMass"] as? UInt64 == tx.storageMass)
            #expect(mass["computeMass"] is UInt64)
        }
        let path = try Self.file(try KaspaTxVectors.rawJSON(transaction: 0, field: "unsignedTx"), "tx.json")
        let outOfRange = try await TandemProcess.run("kaspa", "tx", "sighash", path, "--input", "9")
        #expect(outOfRange.status == 1 && outOfRange.stderrLines.count == 1)
    }

    @Test func signAndBuildMakeTransactionsTheVectorsConfirm() async throws {
        let v = try vectors.get()
        let tx = v.transactions[0]
        let unsigned = try KaspaTxVectors.rawJSON(transaction: 0, field: "unsignedTx")
        let key = try #require(v.scripts.first { $0.address == tx.outputs[1].address })
        let keyPath = try Self.file(Data((key.private_key + "\n").utf8), "key")
        let txPath = try Self.file(unsigned, "tx.json")
        let signedOutput = try await TandemProcess.run("kaspa", "tx", "sign", txPath, "--key-file", keyPath)
        #expect(signedOutput.status == 0, "\(signedOutput.stderrText)")
        let signed = try JSONDecoder().decode(KaspaTransaction.self, from: signedOutput.stdout)
        try signed.verifySignatures()
        #expect(Hex.encode(signed.id) == tx.id)

        let utxos = try Self.file(try KaspaTxVectors.rawJSON(transaction: 0, field: "utxos"), "utxos.json")
        let built = try await TandemProcess.run(
            "kaspa", "tx", "build", "--utxos", utxos, "--key-file", keyPath, "--to", tx.outputs[0].address,
            "--amount", String(tx.outputs[0].value), "--payload", tx.payloadHex, "--json")
        #expect(built.status == 0, "\(built.stderrText)")
        let handshake = try JSONDecoder().decode(KaspaTransaction.self, from: built.stdout)
        #expect(Hex.encode(handshake.id) == tx.id)
        try handshake.verifySignatures()

        let reject = try #require(v.rejects.first)
        let rejectUTXOs = try Self.file(
            try KaspaTxVectors.rawJSON(transaction: 0, field: "utxos", section: "rejects"), "reject.json")
        let refused = try await TandemProcess.run(
            "kaspa", "tx", "build", "--utxos", rejectUTXOs, "--key-file", keyPath, "--to", reject.outputs[0].address,
            "--amount", String(reject.outputs[0].value))
        #expect(refused.status == 1)
        #expect(refused.stderrLines.count == 1 && refused.stderrText.contains("storage mass"))
    }
}
