import KasiaProtocol
import TandemAPI
import TandemBasics
import TandemServerStore

/// Writes relayed rows as kasia-indexer does (kasia-protocol §10): snake_case keys in the
/// indexer's field order, `null` for absent optionals, lowercase hex. Written by hand so the
/// bytes are exactly the indexer's, which JSONEncoder's key order does not promise; golden
/// tests pin them, and the TandemAPI `Indexer*` types decode them.
///
/// One member is Tandem's own, last in every row: `root`, the root that carried the payload
/// (`"kchat"` or `"ciph_msg"`, kasia-protocol §16), which the body after it does not show. A
/// client reads it as evidence of what the sender reads; indexer clients ignore it.
enum IndexerRowJSON {
    /// How a row is presented: kasia-indexer echoes the query's text in some columns (the
    /// alias of contextual messages, the scope of self-stashes, the address of payments read
    /// by sender); without a query (the live stream) the stored values are written.
    struct Presentation {
        var aliasEcho: String?
        var scopeEcho: String?
        var paymentSenderEcho: String?

        static let stream = Presentation()
    }

    static func array(_ records: [KasiaRecord], _ presentation: Presentation) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, record) in records.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            row(record, presentation, &out)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    static func row(_ record: KasiaRecord, _ presentation: Presentation, _ out: inout [UInt8]) {
        let draft = record.draft
        var object = ObjectWriter(out: out)
        object.string("tx_id", draft.txID)
        switch draft.kind {
        case .handshake:
            object.string("sender", draft.sender)
            object.string("receiver", draft.receiver ?? "")
            object.number("block_time", record.blockTime.rawValue)
            object.acceptance(record.acceptance)
            object.string("message_payload", Hex.encode(draft.body))
        case .contextualMessage:
            object.string("sender", draft.sender)
            object.string("alias", presentation.aliasEcho ?? draft.tag)
            object.number("block_time", record.blockTime.rawValue)
            object.acceptance(record.acceptance)
            object.string("message_payload", Hex.encode(draft.body))
        case .payment:
            object.string("sender", presentation.paymentSenderEcho ?? draft.sender)
            object.string("receiver", draft.receiver ?? "")
            object.number("block_time", record.blockTime.rawValue)
            object.number("amount", draft.amount)
            object.string("message", Hex.encode(draft.body))
            object.acceptance(record.acceptance)
        case .selfStash:
            object.string("owner", draft.sender)
            object.string("scope", presentation.scopeEcho ?? draft.tag)
            object.number("block_time", record.blockTime.rawValue)
            object.acceptance(record.acceptance)
            object.string("stashed_data", Hex.encode(draft.body))
        case .broadcast:
            object.string("sender", draft.sender)
            object.string("channel", draft.tag)
            object.number("block_time", record.blockTime.rawValue)
            object.string("message", Hex.encode(draft.body))
        }
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

    /// Appends `"key":value` members to one JSON object.
    struct ObjectWriter {
        var out: [UInt8]
        private var first = true

        init(out: [UInt8]) {
            self.out = out
            self.out.append(UInt8(ascii: "{"))
        }

        private mutating func key(_ name: String) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            WireJSON.string(name, &out)
            out.append(UInt8(ascii: ":"))
        }

        mutating func string(_ name: String, _ value: String) {
            key(name)
            WireJSON.string(value, &out)
        }

        mutating func optionalString(_ name: String, _ value: String?) {
            if let value { string(name, value) } else { null(name) }
        }

        mutating func number(_ name: String, _ value: Int64) {
            key(name)
            out.append(contentsOf: Array(String(value).utf8))
        }

        mutating func number(_ name: String, _ value: UInt64) {
            key(name)
            out.append(contentsOf: Array(String(value).utf8))
        }

        mutating func bool(_ name: String, _ value: Bool) {
            key(name)
            out.append(contentsOf: Array((value ? "true" : "false").utf8))
        }

        /// A member whose value `write` appends (a nested object).
        mutating func raw(_ name: String, _ write: (inout [UInt8]) -> Void) {
            key(name)
            write(&out)
        }

        mutating func null(_ name: String) {
            key(name)
            out.append(contentsOf: Array("null".utf8))
        }

        /// The accepting chain block, or `null`s while the row is only relayed (as a fresh
        /// indexer row).
        mutating func acceptance(_ acceptance: KasiaAcceptance?) {
            guard let acceptance else {
                null("accepting_block")
                null("accepting_daa_score")
                return
            }
            string("accepting_block", acceptance.block)
            number("accepting_daa_score", acceptance.daaScore)
        }

        mutating func finish() -> [UInt8] {
            out.append(UInt8(ascii: "}"))
            return out
        }
    }
}
