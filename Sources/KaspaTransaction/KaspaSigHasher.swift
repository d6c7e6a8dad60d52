import Crypto

/// Signature hashes of one transaction (rusty-kaspa `hashing/sighash.rs`).
///
/// The hashes of all previous outpoints, sequences, sigop counts, outputs and the payload are
/// the same for every input; they are computed once here, as the SDK's reused values are, so
/// signing n inputs costs n small hashes rather than n² (the figure in BENCHMARKS.md).
public struct KaspaSigHasher: Sendable {
    public let transaction: KaspaTransaction
    private let entries: [KaspaUtxoEntry]
    private let previousOutputsHash: [UInt8]
    private let sequencesHash: [UInt8]
    private let sigOpCountsHash: [UInt8]
    private let outputsHash: [UInt8]
    private let payloadHash: [UInt8]

    private static let zeroHash = [UInt8](repeating: 0, count: 32)

    /// Needs every input's UTXO entry: each input's hash commits to the amount and script it spends.
    public init(_ transaction: KaspaTransaction) throws(KaspaTransactionError) {
        self.transaction = transaction
        entries = try transaction.utxoEntries()
        var hasher = KaspaHasher(domain: .transactionSigning)
        for input in transaction.inputs {
            hasher.update(input.previousOutpoint.transactionID)
            hasher.write(input.previousOutpoint.index)
        }
        previousOutputsHash = hasher.finalize()
        hasher = KaspaHasher(domain: .transactionSigning)
        for input in transaction.inputs { hasher.write(input.sequence) }
        sequencesHash = hasher.finalize()
        hasher = KaspaHasher(domain: .transactionSigning)
        for input in transaction.inputs { hasher.write(input.sigOpCount) }
        sigOpCountsHash = hasher.finalize()
        hasher = KaspaHasher(domain: .transactionSigning)
        for output in transaction.outputs { Self.write(output, into: &hasher) }
        outputsHash = hasher.finalize()
        // kasia-protocol §12: the payload is hashed in, except an empty one on the native subnetwork.
        if transaction.isNativeSubnetwork && transaction.payload.isEmpty {
            payloadHash = Self.zeroHash
        } else {
            hasher = KaspaHasher(domain: .transactionSigning)
            hasher.writeVarBytes(transaction.payload)
            payloadHash = hasher.finalize()
        }
    }

    private static func write(_ output: KaspaTransactionOutput, into hasher: inout KaspaHasher) {
        hasher.write(output.value)
        hasher.write(output.scriptPublicKey.version)
        hasher.writeVarBytes(output.scriptPublicKey.script)
    }

    /// The digest a BIP-340 signature of input `index` signs.
    public func schnorrHash(input index: Int, type: KaspaSigHashType = .all) throws(KaspaTransactionError) -> [UInt8] {
        guard transaction.inputs.indices.contains(index) else {
            throw .inputIndex(index, count: transaction.inputs.count)
        }
        let input = transaction.inputs[index]
        let entry = entries[index]
        var hasher = KaspaHasher(domain: .transactionSigning)
        hasher.write(transaction.version)
        hasher.update(type.isAnyoneCanPay ? Self.zeroHash : previousOutputsHash)
        hasher.update(type.isSingle || type.isAnyoneCanPay || type.isNone ? Self.zeroHash : sequencesHash)
        hasher.update(type.isAnyoneCanPay ? Self.zeroHash : sigOpCountsHash)
        hasher.update(input.previousOutpoint.transactionID)
        hasher.write(input.previousOutpoint.index)
        hasher.write(entry.scriptPublicKey.version)
        hasher.writeVarBytes(entry.scriptPublicKey.script)
        hasher.write(entry.amount)
        hasher.write(input.sequence)
        hasher.write(input.sigOpCount)
        hasher.update(outputsHash(for: index, type: type))
        hasher.write(transaction.lockTime)
        hasher.update(transaction.subnetworkID)
        hasher.write(transaction.gas)
        hasher.update(payloadHash)
        hasher.write(type.rawValue)
        return hasher.finalize()
    }

    /// The ECDSA digest: SHA-256 of SHA-256("TransactionSigningHashECDSA") ‖ the Schnorr digest.
    public func ecdsaHash(input index: Int, type: KaspaSigHashType = .all) throws(KaspaTransactionError) -> [UInt8] {
        let schnorr = try schnorrHash(input: index, type: type)
        var sha = SHA256()
        sha.update(data: Self.ecdsaDomain)
        sha.update(data: schnorr)
        return Array(sha.finalize())
    }

    private static let ecdsaDomain = Array(SHA256.hash(data: Array("TransactionSigningHashECDSA".utf8)))

    private func outputsHash(for index: Int, type: KaspaSigHashType) -> [UInt8] {
        if type.isNone { return Self.zeroHash }
        if type.isSingle {
            guard transaction.outputs.indices.contains(index) else { return Self.zeroHash }
            var hasher = KaspaHasher(domain: .transactionSigning)
            Self.write(transaction.outputs[index], into: &hasher)
            return hasher.finalize()
        }
        return outputsHash
    }
}
