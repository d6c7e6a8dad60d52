public import KaspaCrypto

extension KaspaTransaction {
    /// Every input signed with `key` over its SIGHASH_ALL digest, each signature script set to
    /// `0x41 ‖ sig64 ‖ 0x01` (kasia-protocol §12): BIP-340 over the Schnorr digest for a UTXO
    /// locked to the key's Schnorr script, ECDSA over the ECDSA digest for one locked to its ECDSA
    /// script. Any other input is a mistake.
    public func signed(with key: PrivateKey) throws(KaspaTransactionError) -> KaspaTransaction {
        try signed(withKeys: [key])
    }

    /// Every input signed with the one of `keys` its UTXO is locked to (issue 44 item 2: an HD
    /// wallet spends from several addresses at once), as ``signed(with:)`` signs with one. The
    /// Schnorr inputs of each key are signed together with its keypair.
    public func signed(withKeys keys: [PrivateKey]) throws(KaspaTransactionError) -> KaspaTransaction {
        var schnorrKeys: [KaspaScriptPublicKey: Int] = [:]
        var ecdsaKeys: [[UInt8]: Int] = [:]
        for (position, key) in keys.enumerated() {
            schnorrKeys[KaspaScriptPublicKey(address: KaspaAddress(publicKey: key.xOnlyPublicKey))] = position
            ecdsaKeys[key.publicKey.compressedRepresentation] = position
        }
        let hasher = try KaspaSigHasher(self)
        var signed = self
        var schnorrInputs: [Int: [Int]] = [:]
        var digests: [Int: [[UInt8]]] = [:]
        for index in inputs.indices {
            let script = inputs[index].utxo?.scriptPublicKey
            if let script, let position = schnorrKeys[script] {
                schnorrInputs[position, default: []].append(index)
                digests[position, default: []].append(try hasher.schnorrHash(input: index, type: .all))
            } else if let ecdsaKey = script?.ecdsaPublicKey, let position = ecdsaKeys[ecdsaKey] {
                let digest = try hasher.ecdsaHash(input: index, type: .all)
                let signature: ECDSASignature
                do { signature = try keys[position].ecdsaSignature(for: digest) } catch {
                    throw .signingFailed(error.description)
                }
                signed.inputs[index].signatureScript = Self.signatureScript(signature.rawRepresentation, type: .all)
            } else {
                throw .notOurInput(input: index)
            }
        }
        for (position, indices) in schnorrInputs {
            let signatures: [SchnorrSignature]
            do { signatures = try keys[position].signatures(for: digests[position] ?? []) } catch {
                throw .signingFailed(error.description)
            }
            for (index, signature) in zip(indices, signatures) {
                signed.inputs[index].signatureScript = Self.signatureScript(signature, type: .all)
            }
        }
        return signed
    }

    /// `OP_DATA_65 ‖ sig64 ‖ type`: the standard Schnorr unlocking script.
    public static func signatureScript(_ signature: SchnorrSignature, type: KaspaSigHashType) -> [UInt8] {
        signatureScript(signature.rawRepresentation, type: type)
    }

    /// `OP_DATA_65 ‖ sig64 ‖ type` for a 64-byte BIP-340 or compact ECDSA signature.
    static func signatureScript(_ signature: [UInt8], type: KaspaSigHashType) -> [UInt8] {
        var script: [UInt8] = [0x41]
        script.reserveCapacity(66)
        script.append(contentsOf: signature)
        script.append(type.rawValue)
        return script
    }

    /// Checks every input's signature against the script of the UTXO it spends: the relay's test
    /// that a submitted transaction is what its sender signed. Standard Schnorr and ECDSA
    /// pay-to-public-key inputs are verified as a node's `OP_CHECKSIG` / `OP_CHECKSIGECDSA` does
    /// (BIP-340 over the Schnorr digest; libsecp256k1 ECDSA over the ECDSA digest); the sighash
    /// type is the script's last byte. Pay-to-script-hash inputs need a script engine and are
    /// refused with ``KaspaTransactionError/scriptHashUnsupported(input:)``.
    public func verifySignatures() throws(KaspaTransactionError) {
        let hasher = try KaspaSigHasher(self)
        for (index, input) in inputs.enumerated() {
            guard let utxo = input.utxo else { throw .missingUTXO(input: index) }
            let script = input.signatureScript
            if let keyBytes = utxo.scriptPublicKey.schnorrPublicKey {
                let (signatureBytes, type) = try Self.parseSignatureScript(script, input: index)
                let digest = try hasher.schnorrHash(input: index, type: type)
                guard let key = try? XOnlyPublicKey(rawRepresentation: keyBytes),
                    let signature = try? SchnorrSignature(rawRepresentation: signatureBytes),
                    key.isValidSignature(signature, for: digest)
                else { throw .badSignature(input: index) }
            } else if let keyBytes = utxo.scriptPublicKey.ecdsaPublicKey {
                let (signatureBytes, type) = try Self.parseSignatureScript(script, input: index)
                let digest = try hasher.ecdsaHash(input: index, type: type)
                guard let key = try? PublicKey(compressedRepresentation: keyBytes),
                    let signature = try? ECDSASignature(rawRepresentation: signatureBytes),
                    key.isValidECDSASignature(signature, for: digest)
                else { throw .badSignature(input: index) }
            } else if utxo.scriptPublicKey.isScriptHash {
                throw .scriptHashUnsupported(input: index)
            } else {
                throw .unsupportedScript(input: index)
            }
        }
    }

    /// The 64 signature bytes and the sighash type of a standard `0x41 ‖ sig64 ‖ type` script.
    private static func parseSignatureScript(
        _ script: [UInt8], input: Int
    ) throws(KaspaTransactionError) -> (ArraySlice<UInt8>, KaspaSigHashType) {
        guard script.count == 66, script[0] == 0x41 else { throw .malformedSignatureScript(input: input) }
        return (script[1..<65], try KaspaSigHashType(rawValue: script[65]))
    }
}
