public import KasiaProtocol
public import KaspaCrypto
import KaspaRPC
import KaspaTransaction

extension KasiaIndexEntry {
    /// The entry kasia-indexer keeps for `accepted`, which `block` included and accepted, or nil
    /// when it keeps none: a payload it does not index (``KasiaIndexedPayload``), or a handshake
    /// or payment without a first output to key it by. Addresses are written for `network`.
    public init?(_ accepted: SimulatedBlock.AcceptedTransaction, in block: SimulatedBlock, network: KaspaNetwork) {
        let transaction = accepted.transaction
        guard let payload = transaction.payload, let indexed = KasiaIndexedPayload(payload) else { return nil }
        let firstOutput = transaction.outputs.first
        let receiver = firstOutput?.scriptPublicKey.value.address(network: network)
        let operation = Operation(indexed)
        if operation == .handshake || operation == .payment, receiver == nil { return nil }
        // The sender owns the output the first input spends (kaspa-node.md §5).
        let spent = transaction.inputs.first.flatMap { input in
            accepted.spent.first { $0.outpoint == input.previousOutpoint }
        }
        self.init(
            operation: operation, root: indexed.root, txID: accepted.id,
            sender: spent?.scriptPublicKey.address(network: network), receiver: receiver, amount: firstOutput?.value,
            blockTime: UInt64(max(block.time.rawValue, 0)), acceptingBlock: block.hash,
            acceptingDaaScore: block.daaScore, body: indexed.body)
    }
}

extension KasiaIndexEntry.Operation {
    /// The table and key the indexer files `indexed` under.
    public init(_ indexed: KasiaIndexedPayload) {
        switch indexed.kind {
        case .handshake: self = .handshake
        case .payment: self = .payment
        case .contextualMessage: self = .contextualMessage(alias: indexed.tag)
        case .selfStash: self = .selfStash(scope: indexed.tag)
        }
    }
}
