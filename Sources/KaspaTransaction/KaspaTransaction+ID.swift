extension KaspaTransaction {
    /// The transaction id: `TransactionID`-keyed BLAKE2b over the transaction with every signature
    /// script written as empty and no sigop counts (rusty-kaspa `hashing/tx.rs`), so signing does
    /// not change it. Coinbase transactions are not built here.
    public var id: [UInt8] {
        var hasher = KaspaHasher(domain: .transactionID)
        write(into: &hasher, includeSignatures: false)
        return hasher.finalize()
    }

    /// The transaction hash: the same serialisation with signature scripts and sigop counts.
    public var hash: [UInt8] {
        var hasher = KaspaHasher(domain: .transactionHash)
        write(into: &hasher, includeSignatures: true)
        return hasher.finalize()
    }

    private func write(into hasher: inout KaspaHasher, includeSignatures: Bool) {
        hasher.write(version)
        hasher.write(UInt64(inputs.count))
        for input in inputs {
            hasher.update(input.previousOutpoint.transactionID)
            hasher.write(input.previousOutpoint.index)
            if includeSignatures {
                hasher.writeVarBytes(input.signatureScript)
                hasher.write(input.sigOpCount)
            } else {
                hasher.writeVarBytes([])
            }
            hasher.write(input.sequence)
        }
        hasher.write(UInt64(outputs.count))
        for output in outputs {
            hasher.write(output.value)
            hasher.write(output.scriptPublicKey.version)
            hasher.writeVarBytes(output.scriptPublicKey.script)
        }
        hasher.write(lockTime)
        hasher.update(subnetworkID)
        hasher.write(gas)
        hasher.writeVarBytes(payload)
    }
}
