import TandemBasics

/// The `kasia_tx` column list of PostgreSQL's table, and the checks both backends apply when
/// reading a row back (SQLite's table holds compact keys instead: ``SQLiteKasiaKeys``).
enum KasiaRecordColumns {
    static let list =
        "tx_id, block_time, kind, sender, receiver, amount, tag, body, payload, nonce, signature, seq, accepting_block, accepting_daa_score"
    /// What a relayed row is inserted with: its position is also its block time and its
    /// relay time.
    static let relayInsert =
        "tx_id, block_time, kind, sender, receiver, amount, tag, body, payload, nonce, signature, seq, relayed_time"

    /// Rebuilds a record from column values; a value no writer produces is a corrupt row. Each
    /// backend reads the kind from its own column (PostgreSQL's raw value, SQLite's code).
    static func record(
        txID: String, blockTime: Int64, kind: KasiaRecordKind, sender: String, receiver: String?, amount: Int64,
        tag: String, body: [UInt8], payload: [UInt8], nonce: String, signature: String, position: Int64,
        acceptingBlock: String?, acceptingDaaScore: Int64?
    ) throws -> KasiaRecord {
        guard let nonce = UInt64(nonce) else {
            throw ServerStoreError.corruptRow(table: "kasia_tx", reason: "tx \(txID): nonce '\(nonce)' is not a uint64")
        }
        let draft = KasiaRecordDraft(
            txID: txID, kind: kind, sender: sender, receiver: receiver, amount: amount, tag: tag, body: body,
            payload: payload, nonce: nonce, signature: signature)
        var acceptance: KasiaAcceptance?
        if let acceptingBlock {
            guard let score = acceptingDaaScore, score >= 0 else {
                throw ServerStoreError.corruptRow(table: "kasia_tx", reason: "tx \(txID): accepted without a DAA score")
            }
            acceptance = KasiaAcceptance(block: acceptingBlock, daaScore: UInt64(score))
        }
        return KasiaRecord(draft: draft, blockTime: UnixMillis(blockTime), position: position, acceptance: acceptance)
    }

    /// The equality columns of an indexer query: by-sender queries match `(kind, sender, tag)`,
    /// by-receiver ones `(kind, receiver)`; both then range over `block_time`, ties in
    /// `tx_id` order.
    static func condition(_ query: KasiaIndexQuery) -> (
        kind: KasiaRecordKind, byReceiver: Bool, address: String, tag: String
    ) {
        switch query {
        case .handshakesBySender(let address): (.handshake, false, address, "")
        case .handshakesByReceiver(let address): (.handshake, true, address, "")
        case .contextualMessages(let sender, let alias): (.contextualMessage, false, sender, alias)
        case .paymentsBySender(let address): (.payment, false, address, "")
        case .paymentsByReceiver(let address): (.payment, true, address, "")
        case .selfStashes(let owner, let scope): (.selfStash, false, owner, scope)
        }
    }
}
