public import KaspaCrypto
public import KaspaTransaction

extension SimulatedChain {
    /// The accepted UTXOs paying `address` (never mempool outputs), oldest first.
    public func utxos(of address: KaspaAddress) -> [KaspaUtxoEntry] {
        let script = KaspaScriptPublicKey(address: address)
        return utxos.values.filter { $0.entry.scriptPublicKey == script }
            .sorted { ($0.entry.blockDAAScore, $0.sequence) < ($1.entry.blockDAAScore, $1.sequence) }
            .map(\.entry)
    }

    /// The sum of ``utxos(of:)``.
    public func balance(of address: KaspaAddress) -> UInt64 {
        utxos(of: address).reduce(0) { $0.addingReportingOverflow($1.amount).partialValue }
    }

    /// The accepted UTXO at `outpoint`, if it is unspent.
    public func utxo(at outpoint: KaspaOutpoint) -> KaspaUtxoEntry? { utxos[outpoint]?.entry }

    /// Every unspent output, oldest first.
    public var allUtxos: [KaspaUtxoEntry] {
        utxos.values.sorted { ($0.entry.blockDAAScore, $0.sequence) < ($1.entry.blockDAAScore, $1.sequence) }
            .map(\.entry)
    }

    /// The mempool transaction with this id.
    public func mempoolTransaction(_ id: [UInt8]) -> MempoolTransaction? { mempool.first { $0.id == id } }

    /// Mempool transactions spending an output that pays `address` (`sending`) and those with an
    /// output to it (`receiving`), in arrival order.
    public func mempoolTransactions(
        of address: KaspaAddress
    ) -> (sending: [MempoolTransaction], receiving: [MempoolTransaction]) {
        let script = KaspaScriptPublicKey(address: address)
        return (
            mempool.filter { $0.spent.contains { $0.scriptPublicKey == script } },
            mempool.filter { $0.transaction.outputs.contains { $0.scriptPublicKey.value == script } }
        )
    }

    /// The DAA score of the block that accepted the transaction `id`, if the chain holds it.
    public func acceptingDaaScore(of id: [UInt8]) -> UInt64? { accepted[id] }
}
