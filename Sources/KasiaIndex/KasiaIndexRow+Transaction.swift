import KasiaProtocol
public import KaspaCrypto
public import KaspaRPC
import KaspaTransaction
import TandemBasics

extension KasiaIndexRow {
    /// The row a kasia-indexer keeps for `transaction`, or nil when it keeps none: a payload it
    /// does not index (``KasiaIndexedPayload``), or a transaction whose id is neither given by the
    /// node nor computable. The one reading of a node's transaction (kaspa-node.md §5) that the
    /// server's chain ingest, the simulated node's indexer and the client's chain walk share.
    ///
    /// - The sender is the first input's spent address (`verboseData.utxoEntry`: its address, else
    ///   its script), else `knownSender` (a mempool entry listed under that address), else nil.
    /// - The receiver and amount are the first output's, for handshakes and payments.
    /// - The block time is the including block's (`verboseData.blockTime`), else `fallbackTime`
    ///   (the accepting block's time; now, for a mempool row).
    ///
    /// What a node says is checked before it is kept (issue 50 item 4): a payload larger than
    /// ``maximumPayloadBytes``, or a sender or receiver the node names with text that is not an
    /// address of `network`, makes no row.
    public init?(
        transaction: RPCTransaction, fallbackTime: UInt64, acceptance: Acceptance?, network: KaspaNetwork,
        knownSender: KaspaAddress? = nil
    ) {
        guard let payload = transaction.payload, payload.count <= Self.maximumPayloadBytes,
            let indexed = KasiaIndexedPayload(payload), let txID = Self.transactionID(transaction),
            !Self.namesNonAddress(transaction.inputs.first?.verboseData?.utxoEntry?.verboseData, network: network)
        else { return nil }
        var receiver: String?
        var amount: UInt64 = 0
        if indexed.kind == .handshake || indexed.kind == .payment, let output = transaction.outputs.first {
            guard !Self.namesNonAddress(output.verboseData, network: network) else { return nil }
            receiver = Self.address(of: output, network: network)
            amount = output.value
        }
        let included = transaction.verboseData?.blockTime ?? 0
        self.init(
            kind: indexed.kind, root: indexed.root, txID: txID,
            sender: Self.sender(of: transaction, network: network) ?? knownSender?.description, receiver: receiver,
            amount: amount, tag: Hex.encode(indexed.tag), body: indexed.body,
            blockTime: included > 0 ? included : fallbackTime,
            acceptance: acceptance)
    }

    /// The node's id when the answer carries it, else the id computed from the transaction
    /// (signature scripts are not part of it); nil when neither is possible.
    public static func transactionID(_ transaction: RPCTransaction) -> String? {
        if let id = transaction.verboseData?.transactionId, id.count == 32 { return Hex.encode(id) }
        guard let built = try? transaction.kaspaTransaction(utxo: { _ in nil }) else { return nil }
        return Hex.encode(built.id)
    }

    /// The largest payload a row is kept for (``KasiaPayloadLimit``, 10 KiB).
    public static let maximumPayloadBytes = KasiaPayloadLimit.bytes

    /// The first input's spent address in canonical text, or nil when the node did not say (or
    /// said something that is not an address of `network`).
    public static func sender(of transaction: RPCTransaction, network: KaspaNetwork) -> String? {
        guard let entry = transaction.inputs.first?.verboseData?.utxoEntry else { return nil }
        if let verbose = entry.verboseData, !verbose.scriptPublicKeyAddress.isEmpty {
            return canonical(verbose.scriptPublicKeyAddress, network: network)
        }
        return entry.scriptPublicKey?.value.address(network: network)?.description
    }

    /// The output's address in canonical text, or nil when it pays no standard address.
    public static func address(of output: RPCTransactionOutput, network: KaspaNetwork) -> String? {
        if let verbose = output.verboseData, !verbose.scriptPublicKeyAddress.isEmpty {
            return canonical(verbose.scriptPublicKeyAddress, network: network)
        }
        return output.scriptPublicKey.value.address(network: network)?.description
    }

    /// Whether the node names an address (`scriptPublicKeyAddress`) whose text is not one of
    /// `network`: a lying or broken node, whose row is not kept.
    public static func namesNonAddress(_ verbose: RPCScriptVerboseData?, network: KaspaNetwork) -> Bool {
        guard let text = verbose?.scriptPublicKeyAddress, !text.isEmpty else { return false }
        return canonical(text, network: network) == nil
    }

    /// The address as every store keeps addresses (canonical text); nil when the text is not an
    /// address of `network`.
    private static func canonical(_ text: String, network: KaspaNetwork) -> String? {
        guard let address = try? KaspaAddress(text), address.network == network else { return nil }
        return address.description
    }
}
