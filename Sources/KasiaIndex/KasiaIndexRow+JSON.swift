import CanonicalJSON
import TandemBasics

/// How a route presents its rows: kasia-indexer echoes the query's own text in some members (the
/// alias of contextual messages, the scope of self-stashes, the address of payments read by
/// sender); without a query (a live stream) the stored values are written.
public struct KasiaIndexPresentation: Sendable, Hashable {
    public var aliasEcho: String?
    public var scopeEcho: String?
    public var paymentSenderEcho: String?

    public init(aliasEcho: String? = nil, scopeEcho: String? = nil, paymentSenderEcho: String? = nil) {
        self.aliasEcho = aliasEcho
        self.scopeEcho = scopeEcho
        self.paymentSenderEcho = paymentSenderEcho
    }

    /// The stored values, echoing nothing.
    public static let stored = KasiaIndexPresentation()
}

extension KasiaIndexRow {
    /// Appends the row as kasia-indexer writes it (kasia-protocol §10): snake_case members in the
    /// indexer's order, lowercase hex, `null` for an acceptance not known yet. An unresolved sender
    /// is `""` on handshakes and contextual messages and `null` on payments and self-stashes, as the
    /// indexer answers them. Written by hand so the bytes are the indexer's, which `JSONEncoder`'s
    /// member order does not promise.
    ///
    /// `includingRoot` adds Tandem's own last member, `root` (`"kchat"` or `"ciph_msg"`,
    /// kasia-protocol §16): a Tandem server writes it, kasia-indexer (and so the simulated one)
    /// does not; indexer clients ignore it. A payment then says whether a chain block accepted it
    /// (`verified`, issue 50 item 7): a relayed payment's coins may not exist.
    public func writeJSON(
        into out: inout [UInt8], presentation: KasiaIndexPresentation = .stored, includingRoot: Bool = false
    ) {
        var object = KasiaIndexJSON.Object(out: out)
        object.string("tx_id", txID)
        switch kind {
        case .handshake:
            object.string("sender", sender ?? "")
            object.string("receiver", receiver ?? "")
            object.number("block_time", blockTime)
            object.acceptance(acceptance)
            object.string("message_payload", Hex.encode(body))
        case .contextualMessage:
            object.string("sender", sender ?? "")
            object.string("alias", presentation.aliasEcho ?? tag)
            object.number("block_time", blockTime)
            object.acceptance(acceptance)
            object.string("message_payload", Hex.encode(body))
        case .payment:
            object.optionalString("sender", presentation.paymentSenderEcho ?? sender)
            object.string("receiver", receiver ?? "")
            object.number("block_time", blockTime)
            object.number("amount", amount)
            object.string("message", Hex.encode(body))
            object.acceptance(acceptance)
        case .selfStash:
            object.optionalString("owner", sender)
            object.string("scope", presentation.scopeEcho ?? tag)
            object.number("block_time", blockTime)
            object.acceptance(acceptance)
            object.string("stashed_data", Hex.encode(body))
        }
        if includingRoot {
            object.string("root", root.rawValue)
            if kind == .payment { object.bool("verified", acceptance != nil) }
        }
        out = object.finish()
    }
}

/// kasia-indexer's JSON answers, written member by member (kasia-protocol §10).
public enum KasiaIndexJSON {
    /// A route's answer: the rows as a JSON array.
    public static func array(
        _ rows: some Sequence<KasiaIndexRow>, presentation: KasiaIndexPresentation = .stored,
        includingRoot: Bool = false
    ) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        var first = true
        for row in rows {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            row.writeJSON(into: &out, presentation: presentation, includingRoot: includingRoot)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// `{"error":"…"}`, a route's refusal body.
    public static func error(_ message: String) -> [UInt8] {
        var object = Object(out: [])
        object.string("error", message)
        return object.finish()
    }

    /// Appends `"name":value` members to one JSON object; strings escaped as JSON requires.
    public struct Object {
        var out: [UInt8]
        private var first = true

        /// Opens an object at the end of `out`.
        public init(out: [UInt8]) {
            self.out = out
            self.out.append(UInt8(ascii: "{"))
        }

        private mutating func key(_ name: String) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            CanonicalWriter.appendString(name, to: &out)
            out.append(UInt8(ascii: ":"))
        }

        public mutating func string(_ name: String, _ value: String) {
            key(name)
            CanonicalWriter.appendString(value, to: &out)
        }

        public mutating func optionalString(_ name: String, _ value: String?) {
            if let value { string(name, value) } else { null(name) }
        }

        public mutating func number(_ name: String, _ value: UInt64) {
            key(name)
            out.append(contentsOf: Array(String(value).utf8))
        }

        public mutating func number(_ name: String, _ value: Int64) {
            key(name)
            out.append(contentsOf: Array(String(value).utf8))
        }

        public mutating func bool(_ name: String, _ value: Bool) {
            key(name)
            out.append(contentsOf: Array((value ? "true" : "false").utf8))
        }

        public mutating func null(_ name: String) {
            key(name)
            out.append(contentsOf: Array("null".utf8))
        }

        /// A member whose value `write` appends (a nested object).
        public mutating func raw(_ name: String, _ write: (inout [UInt8]) -> Void) {
            key(name)
            write(&out)
        }

        /// The accepting chain block and its DAA score, or `null`s while not accepted.
        public mutating func acceptance(_ acceptance: KasiaIndexRow.Acceptance?) {
            guard let acceptance else {
                null("accepting_block")
                null("accepting_daa_score")
                return
            }
            string("accepting_block", acceptance.block)
            number("accepting_daa_score", acceptance.daaScore)
        }

        /// Closes the object and answers the bytes.
        public mutating func finish() -> [UInt8] {
            out.append(UInt8(ascii: "}"))
            return out
        }
    }
}
