import KasiaIndex
import KasiaProtocol
import KaspaCrypto
import KaspaRPC
import TandemBasics
import TandemServerStore

/// What the chain ingester keeps of an accepted transaction: the row the shared indexer model
/// reads from it (``KasiaIndexRow``: both roots, `payment:` and KaChat's `pay:`, as KaChat's
/// indexer fork files them; kasia-protocol §4 notes, §10, §16), with the relay's own columns.
///
/// Where the server differs from the indexer, by design: it keeps only accepted transactions (the
/// chain walk's), so a row always has its acceptance; the sender is the one the node reports
/// for the first input (`""` when it reports none) instead of resolved later.
enum KasiaChainRowReader {
    /// The indexer's operation for `payload`: its kind, tag bytes (alias or scope) and the
    /// stored body; nil when the indexer skips it.
    static func operation(_ payload: [UInt8]) -> (kind: KasiaRecordKind, tag: [UInt8], body: [UInt8])? {
        guard let indexed = KasiaIndexedPayload(payload) else { return nil }
        return (kind(indexed.kind), indexed.tag, indexed.body)
    }

    /// The relay's kind of an indexer table.
    static func kind(_ kind: KasiaIndexRow.Kind) -> KasiaRecordKind {
        switch kind {
        case .handshake: .handshake
        case .contextualMessage: .contextualMessage
        case .payment: .payment
        case .selfStash: .selfStash
        }
    }

    /// The row for `transaction`, accepted by `acceptance`, or nil when it carries no indexed
    /// operation or no transaction id. `fallbackTime` is the accepting block's time, for a
    /// transaction without its including block's.
    static func row(
        _ transaction: RPCTransaction, acceptance: KasiaAcceptance, fallbackTime: UInt64, network: KaspaNetwork
    ) -> KasiaChainRow? {
        guard
            let row = KasiaIndexRow(
                transaction: transaction, fallbackTime: fallbackTime,
                acceptance: KasiaIndexRow.Acceptance(block: acceptance.block, daaScore: acceptance.daaScore),
                network: network),
            let payload = transaction.payload
        else { return nil }
        var signature = ""
        if let script = transaction.inputs.first?.signatureScript, script.count >= 65 {
            signature = Hex.encode(script[1..<65])
        }
        let draft = KasiaRecordDraft(
            txID: row.txID, kind: kind(row.kind), sender: row.sender ?? "", receiver: row.receiver,
            amount: Int64(clamping: row.amount), tag: row.tag, body: row.body, payload: payload, nonce: 0,
            signature: signature)
        return KasiaChainRow(
            draft: draft, blockTime: UnixMillis(Int64(clamping: row.blockTime)), acceptance: acceptance)
    }
}
