public import KaspaCrypto

extension KaspaTransaction {
    /// Every input signed with `key` (BIP-340 over the SIGHASH_ALL Schnorr digest), each signature
    /// script set to `0x41 ‖ sig64 ‖ 0x01` (kasia-protocol §12). Every input must spend a UTXO
    /// locked to the key's Schnorr script: a wallet has one key, and a foreign input is a mistake.
    public func signed(with key: PrivateKey) throws(KaspaTransactionError) -> KaspaTransaction {
        let ourScript = KaspaScriptPublicKey(address: KaspaAddress(publicKey: key.xOnlyPublicKey))
        let hasher = try KaspaSigHasher(self)
        var digests: [[UInt8]] = []
        digests.reserveCapacity(inputs.count)
        for index in inputs.indices {
            guard inputs[index].utxo?.scriptPublicKey == ourScript else { throw .notOurInput(input: index) }
            digests.append(try hasher.schnorrHash(input: index, type: .all))
        }
        let signatures: [SchnorrSignature]
        do { signatures = try key.signatures(for: digests) } catch { throw .signingFailed(error.description) }
        var signed = self
        for (index, signature) in signatures.enumerated() {
            signed.inputs[index].signatureScript = Self.signatureScript(signature, type: .all)
        }
        return signed
    }

    /// `OP_DATA_65 ‖ sig64 ‖ type`: the standard Schnorr unlocking script.
    public static func signatureScript(_ signature: SchnorrSignature, type: KaspaSigHashType) -> [UInt8] {
        var script: [UInt8] = [0x41]
        script.reserveCapacity(66)
        script.append(contentsOf: signature.rawRepresentation)
        script.append(type.rawValue)
        return script
    }

    /// Checks every input's signature against the script of the UTXO it spends: the relay's test
    /// that a submitted transaction is what its sender signed. Only standard Schnorr
    /// pay-to-public-key inputs are accepted; the sighash type is the script's last byte.
    public func verifySignatures() throws(KaspaTransactionError) {
        let hasher = try KaspaSigHasher(self)
        for (index, input) in inputs.enumerated() {
            guard let keyBytes = input.utxo?.scriptPublicKey.schnorrPublicKey else {
                throw .unsupportedScript(input: index)
            }
            let script = input.signatureScript
            guard script.count == 66, script[0] == 0x41 else { throw .malformedSignatureScript(input: index) }
            let type = try KaspaSigHashType(rawValue: script[65])
            let digest = try hasher.schnorrHash(input: index, type: type)
            guard let key = try? XOnlyPublicKey(rawRepresentation: keyBytes),
                let signature = try? SchnorrSignature(rawRepresentation: script[1..<65]),
                key.isValidSignature(signature, for: digest)
            else { throw .badSignature(input: index) }
        }
    }
}
