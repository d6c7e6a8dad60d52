import TandemBasics

/// One entry as a kasia-indexer route writes it (kasia-protocol §10): snake_case members,
/// lowercase hex, `null` where the indexer has no value, and the query's own text echoed where
/// kasia-indexer echoes it (`alias`, `scope`, and `sender` of payments read by sender).
struct IndexerRow: Encodable, Sendable {
    let entry: KasiaIndexEntry
    let request: KasiaIndexRequest

    func encode(to encoder: any Encoder) throws {
        var row = encoder.container(keyedBy: JSONKey.self)
        try row.encode(Hex.encode(entry.txID), forKey: "tx_id")
        let sender = entry.sender?.description
        switch request.route {
        case .handshakesBySender, .handshakesByReceiver:
            // An unresolved sender is "" here, null on payments and self-stashes.
            try row.encode(sender ?? "", forKey: "sender")
            try row.encode(entry.receiver?.description ?? "", forKey: "receiver")
            try row.encode(entry.blockTime, forKey: "block_time")
            try acceptance(&row)
            try row.encode(Hex.encode(entry.body), forKey: "message_payload")
        case .contextualMessagesBySender:
            try row.encode(sender ?? "", forKey: "sender")
            try row.encode(request.echo ?? "", forKey: "alias")
            try row.encode(entry.blockTime, forKey: "block_time")
            try acceptance(&row)
            try row.encode(Hex.encode(entry.body), forKey: "message_payload")
        case .paymentsBySender, .paymentsByReceiver:
            try row.encode(request.route == .paymentsBySender ? request.echo : sender, forKey: "sender")
            try row.encode(entry.receiver?.description ?? "", forKey: "receiver")
            try row.encode(entry.blockTime, forKey: "block_time")
            try row.encode(entry.amount ?? 0, forKey: "amount")
            try row.encode(Hex.encode(entry.body), forKey: "message")
            try acceptance(&row)
        case .selfStashByOwner:
            try row.encode(sender, forKey: "owner")
            try row.encode(request.echo ?? "", forKey: "scope")
            try row.encode(entry.blockTime, forKey: "block_time")
            try acceptance(&row)
            try row.encode(Hex.encode(entry.body), forKey: "stashed_data")
        }
    }

    private func acceptance(_ row: inout KeyedEncodingContainer<JSONKey>) throws {
        try row.encode(Hex.encode(entry.acceptingBlock), forKey: "accepting_block")
        try row.encode(entry.acceptingDaaScore, forKey: "accepting_daa_score")
    }
}
