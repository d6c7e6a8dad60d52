import KaspaCrypto
import KaspaRPC
import KaspaTransaction

extension MempoolTransaction {
    /// The entry as `getMempoolEntry` and `getMempoolEntriesByAddresses` answer it: the full
    /// transaction with verbose data (outputs' script class and address; the zero block hash and
    /// time 0 of a mempool transaction), its fee, never an orphan.
    func rpcEntry(network: KaspaNetwork) -> RPCMempoolEntry {
        var shown = transaction
        shown.version = transaction.version ?? 0
        shown.lockTime = transaction.lockTime ?? 0
        shown.subnetworkId = transaction.subnetworkId ?? KaspaTransaction.nativeSubnetwork
        shown.gas = transaction.gas ?? 0
        shown.mass = storageMass
        for index in shown.inputs.indices {
            shown.inputs[index].computeBudget = shown.inputs[index].computeBudget ?? 0
            shown.inputs[index].verboseData = nil
        }
        for index in shown.outputs.indices {
            shown.outputs[index].verboseData = RPCScriptVerboseData(
                shown.outputs[index].scriptPublicKey.value, network: network)
        }
        shown.verboseData = RPCTransactionVerboseData(
            transactionId: id, hash: hash, computeMass: mass.computeMass, blockHash: [UInt8](repeating: 0, count: 32),
            blockTime: 0)
        return RPCMempoolEntry(fee: fee, transaction: shown, isOrphan: false)
    }
}
