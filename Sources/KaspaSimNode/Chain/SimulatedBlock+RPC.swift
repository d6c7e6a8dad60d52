import Crypto
public import KaspaCrypto
public import KaspaRPC
import KaspaTransaction

extension SimulatedBlock {
    /// The difficulty bits every simulated header carries (the simulation has no proof of work).
    static let headerBits: UInt32 = 0x1e7f_ffff

    /// The block's blue score: its height above genesis (one block per DAA step, no DAG).
    public func blueScore(genesisDaaScore: UInt64) -> UInt64 { daaScore - genesisDaaScore }

    /// The header as a chain walk at `level` shows it (kaspa-node.md §5). Members a real header
    /// has but the simulation does not model are stand-ins, stable for a block: version 1, nonce
    /// 0, fixed bits, blue work = blue score, one parent level, merkle roots and the UTXO
    /// commitment as SHA-256 digests of what they would commit to (not the real constructions),
    /// and genesis as the pruning point.
    public func header(
        level: RPCDataVerbosityLevel, genesisDaaScore: UInt64, pruningPoint: [UInt8]
    ) -> RPCOptionalHeader {
        var header = RPCOptionalHeader(hash: hash)
        guard level >= .low else { return header }
        let blueScore = blueScore(genesisDaaScore: genesisDaaScore)
        header.version = 1
        header.timestamp = UInt64(max(time.rawValue, 0))
        header.bits = Self.headerBits
        header.nonce = 0
        header.daaScore = daaScore
        header.blueWork = RPCBlueWork(blueScore)
        header.blueScore = blueScore
        guard level >= .high else { return header }
        header.parentsByLevel = parentHash.map { [RPCParentLevelRun(cumulativeLevelCount: 1, parents: [$0])] } ?? []
        header.hashMerkleRoot = Self.digest("hashMerkleRoot", transactions.map(\.hash))
        header.acceptedIdMerkleRoot = Self.digest("acceptedIdMerkleRoot", transactions.map(\.id))
        guard level >= .full else { return header }
        header.utxoCommitment = Self.digest("utxoCommitment", [hash])
        header.pruningPoint = pruningPoint
        return header
    }

    /// The accepted transactions as a chain walk at `level` shows them, addresses on `network`.
    public func acceptedTransactions(level: RPCDataVerbosityLevel, network: KaspaNetwork) -> [RPCTransaction] {
        transactions.map { $0.rpcTransaction(level: level, in: self, network: network) }
    }

    private static func digest(_ label: String, _ parts: [[UInt8]]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: Array(label.utf8))
        for part in parts { hasher.update(data: part) }
        return Array(hasher.finalize())
    }
}

extension SimulatedBlock.AcceptedTransaction {
    /// The transaction as a chain walk at `level` shows it (the §5 table as §11 corrects it): each
    /// member under the level nil, but `subnetworkId`, `gas`, `payload` and the masses at every
    /// level, as rusty-kaspa fills them; inputs and outputs `[]` at None here (this model's
    /// non-optional script and value cannot carry the real node's null members, so the responder
    /// writes a None page itself: `NoneLevelChainPage`). The sender is each input's
    /// `verboseData.utxoEntry.verboseData.scriptPublicKeyAddress` (from Low); `blockHash` and
    /// `blockTime` are `block`'s, the including block being the accepting one here.
    public func rpcTransaction(
        level: RPCDataVerbosityLevel, in block: SimulatedBlock, network: KaspaNetwork
    ) -> RPCTransaction {
        let subnetwork = transaction.subnetworkId ?? KaspaTransaction.nativeSubnetwork
        guard level >= .low else {
            return RPCTransaction(
                version: nil, inputs: [], outputs: [], lockTime: nil, subnetworkId: subnetwork,
                gas: transaction.gas ?? 0, payload: transaction.payload ?? [], mass: storageMass, verboseData: nil)
        }
        let high = level >= .high
        let full = level >= .full
        let inputs = transaction.inputs.map { input in
            let entry = spent.first { $0.outpoint == input.previousOutpoint }
            return RPCTransactionInput(
                previousOutpoint: high ? input.previousOutpoint : nil, signatureScript: input.signatureScript,
                sequence: high ? input.sequence : nil, sigOpCount: high ? input.sigOpCount : nil,
                computeBudget: high ? input.computeBudget ?? 0 : nil,
                verboseData: entry.map { entry in
                    RPCTransactionInputVerboseData(
                        utxoEntry: RPCVerboseUtxoEntry(
                            amount: high ? entry.amount : nil,
                            scriptPublicKey: high ? RPCScriptPublicKey(entry.scriptPublicKey) : nil,
                            blockDaaScore: full ? entry.blockDAAScore : nil, isCoinbase: high ? entry.isCoinbase : nil,
                            verboseData: RPCScriptVerboseData(entry.scriptPublicKey, network: network)))
                })
        }
        let outputs = transaction.outputs.map { output in
            RPCTransactionOutput(
                value: output.value, scriptPublicKey: output.scriptPublicKey.value,
                verboseData: RPCScriptVerboseData(output.scriptPublicKey.value, network: network))
        }
        return RPCTransaction(
            version: full ? transaction.version ?? 0 : nil, inputs: inputs, outputs: outputs,
            lockTime: full ? transaction.lockTime ?? 0 : nil,
            subnetworkId: subnetwork, gas: transaction.gas ?? 0, payload: transaction.payload ?? [], mass: storageMass,
            verboseData: RPCTransactionVerboseData(
                transactionId: id, hash: hash, computeMass: high ? computeMass : nil, blockHash: block.hash,
                blockTime: UInt64(max(block.time.rawValue, 0))))
    }
}
