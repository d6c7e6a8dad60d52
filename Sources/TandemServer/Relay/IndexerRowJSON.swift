import KasiaIndex
import KasiaProtocol
import TandemAPI
import TandemBasics
import TandemServerStore

/// Writes relayed rows as kasia-indexer does (kasia-protocol §10), through the one indexer model
/// the simulated node and the client share (``KasiaIndexRow/writeJSON(into:presentation:includingRoot:)``):
/// snake_case keys in the indexer's field order, `null` for absent optionals, lowercase hex.
/// Golden tests pin the bytes, and the TandemAPI `Indexer*` types decode them.
///
/// One member is Tandem's own, last in every row: `root`, the root that carried the payload
/// (`"kchat"` or `"ciph_msg"`, kasia-protocol §16), which the body after it does not show. A
/// client reads it as evidence of what the sender reads; indexer clients ignore it. Broadcasts,
/// which no indexer keeps, are written here with the same members' rules.
enum IndexerRowJSON {
    typealias ObjectWriter = KasiaIndexJSON.Object

    static func array(_ records: [KasiaRecord], _ presentation: KasiaIndexPresentation) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, record) in records.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            row(record, presentation, &out)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    static func row(_ record: KasiaRecord, _ presentation: KasiaIndexPresentation, _ out: inout [UInt8]) {
        if let row = KasiaIndexRow(record) {
            row.writeJSON(into: &out, presentation: presentation, includingRoot: true)
            return
        }
        let draft = record.draft
        var object = ObjectWriter(out: out)
        object.string("tx_id", draft.txID)
        object.string("sender", draft.sender)
        object.string("channel", draft.tag)
        object.number("block_time", record.blockTime.rawValue)
        object.string("message", Hex.encode(draft.body))
        object.optionalString("root", KasiaRoot(startOf: draft.payload)?.rawValue)
        out = object.finish()
    }

    /// `{"tx_id":…,"block_time":…}`, the submission answer, with the node's verdict as
    /// `"kaspa"` when the server bridged the transaction to a node.
    static func receipt(_ record: KasiaRecord, kaspa: KaspaBridge.Outcome? = nil) -> [UInt8] {
        var object = ObjectWriter(out: [])
        object.string("tx_id", record.draft.txID)
        object.number("block_time", record.blockTime.rawValue)
        if let kaspa {
            object.raw("kaspa") { out in
                var verdict = ObjectWriter(out: out)
                switch kaspa {
                case .accepted(let node):
                    verdict.bool("accepted", true)
                    verdict.string("node", node)
                case .refused(let reason):
                    verdict.bool("accepted", false)
                    verdict.string("reason", reason)
                }
                out = verdict.finish()
            }
        }
        return object.finish()
    }

    /// `GET /kasia/metrics`, in the field order of kasia-indexer's snapshot (serde writes
    /// declaration order, which `JSONEncoder`'s sorted keys would not keep).
    static func metrics(_ metrics: IndexerMetrics) -> [UInt8] {
        var object = ObjectWriter(out: [])
        object.number("handshakes_by_sender", metrics.handshakesBySender)
        object.number("uniq_handshakes_by_receiver", metrics.handshakesByReceiver)
        object.number("payments_by_sender", metrics.paymentsBySender)
        object.number("uniq_payments_by_receiver", metrics.paymentsByReceiver)
        object.number("contextual_messages", metrics.contextualMessages)
        object.number("blocks_processed", metrics.blocksProcessed)
        object.string("latest_block", metrics.latestBlock)
        object.string("latest_accepting_block", metrics.latestAcceptingBlock)
        object.number("unknown_sender_entries", metrics.unknownSenderEntries)
        object.number("resolved_senders", metrics.resolvedSenders)
        object.number("pruned_blocks", metrics.prunedBlocks)
        return object.finish()
    }

    /// `{"error":"…"}`, the indexer routes' error body.
    static func error(_ message: String) -> [UInt8] {
        var object = ObjectWriter(out: [])
        object.string("error", message)
        return object.finish()
    }
}

extension KasiaIndexRow {
    /// The indexer row of a stored record; nil for a broadcast, which no indexer keeps. A sender
    /// stored as `""` (the node did not say) is unknown.
    init?(_ record: KasiaRecord) {
        let draft = record.draft
        let kind: Kind
        switch draft.kind {
        case .handshake: kind = .handshake
        case .contextualMessage: kind = .contextualMessage
        case .payment: kind = .payment
        case .selfStash: kind = .selfStash
        case .broadcast: return nil
        }
        self.init(
            kind: kind, root: KasiaRoot(startOf: draft.payload) ?? .ciphMsg, txID: draft.txID,
            sender: draft.sender.isEmpty ? nil : draft.sender, receiver: draft.receiver,
            amount: UInt64(clamping: draft.amount), tag: draft.tag, body: draft.body,
            blockTime: UInt64(clamping: record.blockTime.rawValue),
            acceptance: record.acceptance.map { Acceptance(block: $0.block, daaScore: $0.daaScore) })
    }
}
