import KasiaProtocol
import KaspaCrypto
import KaspaRPC
import KaspaTransaction
import TandemBasics
import TandemServerStore

/// What the chain ingester keeps of an accepted transaction: the row a kasia-indexer would
/// serve for it, filed by ``KasiaIndexedPayload`` (both roots, `payment:` and KaChat's `pay:`,
/// as KaChat's indexer fork files them; kasia-protocol §4 notes, §10, §16).
///
/// Where the server differs from the indexer, by design: it keeps only accepted transactions (the
/// chain walk's), so a row always has its acceptance; the sender is the one the node reports
/// for the first input (`""` when it reports none) instead of resolved later; and a receiver is
/// kept for handshakes and payments only, as for relayed rows (nil when the first output is
/// missing or not a standard address, where upstream stores an empty address or fails).
enum KasiaChainRowReader {
    /// The indexer's operation for `payload`: its kind, tag bytes (alias or scope) and the
    /// stored body; nil when the indexer skips it.
    static func operation(_ payload: [UInt8]) -> (kind: KasiaRecordKind, tag: [UInt8], body: [UInt8])? {
        guard let indexed = KasiaIndexedPayload(payload) else { return nil }
        let kind: KasiaRecordKind =
            switch indexed.kind {
            case .handshake: .handshake
            case .contextualMessage: .contextualMessage
            case .payment: .payment
            case .selfStash: .selfStash
            }
        return (kind, indexed.tag, indexed.body)
    }

    /// The row for `transaction`, accepted by `acceptance`, or nil when it carries no indexed
    /// operation or no transaction id (a walk below level Low). `fallbackTime` is the
    /// accepting block's time, for a transaction without its including block's.
    static func row(
        _ transaction: RPCTransaction, acceptance: KasiaAcceptance, fallbackTime: UInt64, network: KaspaNetwork
    ) -> KasiaChainRow? {
        guard let payload = transaction.payload, let (kind, tag, body) = operation(payload),
            let verbose = transaction.verboseData, verbose.transactionId.count == 32
        else { return nil }
        let first = transaction.inputs.first
        let sender =
            first?.verboseData?.utxoEntry.flatMap { entry in
                entry.verboseData.map { canonical($0.scriptPublicKeyAddress) }
                    ?? entry.scriptPublicKey?.value.address(network: network)?.description
            } ?? ""
        var receiver: String?
        var amount: Int64 = 0
        if kind == .handshake || kind == .payment, let output = transaction.outputs.first {
            receiver =
                output.verboseData.map { canonical($0.scriptPublicKeyAddress) }
                ?? output.scriptPublicKey.value.address(network: network)?.description
            amount = Int64(clamping: output.value)
        }
        var signature = ""
        if let script = first?.signatureScript, script.count >= 65 { signature = Hex.encode(script[1..<65]) }
        let draft = KasiaRecordDraft(
            txID: Hex.encode(verbose.transactionId), kind: kind, sender: sender, receiver: receiver, amount: amount,
            tag: Hex.encode(tag), body: body, payload: payload, nonce: 0, signature: signature)
        let time = verbose.blockTime > 0 ? verbose.blockTime : fallbackTime
        return KasiaChainRow(draft: draft, blockTime: UnixMillis(Int64(clamping: time)), acceptance: acceptance)
    }

    /// The address as the relay stores addresses (canonical text), or the node's text when it
    /// does not parse.
    private static func canonical(_ text: String) -> String {
        (try? KaspaAddress(text))?.description ?? text
    }
}
