import GRDB

/// The compact keys of SQLite's `kasia_tx` (issue 49 item 3): each row names its transaction by
/// an 8-byte key beside the full id, its kind by a small code and its sender, receiver and tag
/// by integer ids into `kasia_address` and `kasia_tag`, so the indexes a submission adds to hold
/// a few dozen bytes per row instead of a random 64-hex text key and a 225-byte sender entry.
///
/// Two ids may share a key: the key only narrows a lookup, which then compares the full id, so
/// a collision (chance, or ground on purpose) costs one more row read and nothing else.
enum SQLiteKasiaKeys {
    /// The transaction id's first 16 hex digits as a big-endian number with its top bit flipped,
    /// so keys compare as signed integers in the order the ids compare as text: pages ordered by
    /// `(block_time, tx_key, tx_id)` come out as `(block_time, tx_id)` did. Every writer stores
    /// 64 lowercase hex digits; an id of any other shape keys as `Int64.min` and still reads
    /// back, by its full id.
    static func transactionKey(_ txID: String) -> Int64 {
        var value: UInt64 = 0
        var digits = 0
        for byte in txID.utf8 {
            guard digits < 16 else { break }
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            default: return Int64.min
            }
            value = value << 4 | UInt64(nibble)
            digits += 1
        }
        guard digits == 16 else { return Int64.min }
        return Int64(bitPattern: value ^ (1 << 63))
    }

    /// ``transactionKey(_:)`` for SQL, used when the migration rekeys rows stored before it.
    static let transactionKeyFunction = DatabaseFunction(
        "tandem_kasia_tx_key", argumentCount: 1, pure: true
    ) { values in
        guard let id = String.fromDatabaseValue(values[0]) else { return Int64.min }
        return transactionKey(id)
    }

    /// The stored code of each kind; 0 is never written, so a row holding it (or any other
    /// number) is corrupt.
    static func code(_ kind: KasiaRecordKind) -> Int64 {
        switch kind {
        case .handshake: 1
        case .contextualMessage: 2
        case .payment: 3
        case .selfStash: 4
        case .broadcast: 5
        }
    }

    static func kind(code: Int64) -> KasiaRecordKind? {
        KasiaRecordKind.allCases.first { Self.code($0) == code }
    }

    /// The ids of `draft`'s sender, receiver and tag, each stored now when it is new (inside the
    /// caller's write transaction): what the relay's and the chain's writes both store.
    static func ids(of draft: KasiaRecordDraft, _ db: Database) throws -> (
        sender: Int64, receiver: Int64?, tag: Int64
    ) {
        let sender = try id(of: draft.sender, table: "kasia_address", column: "address", db)
        let receiver = try draft.receiver.map { try id(of: $0, table: "kasia_address", column: "address", db) }
        return (sender, receiver, try id(of: draft.tag, table: "kasia_tag", column: "tag", db))
    }

    private static func id(of value: String, table: String, column: String, _ db: Database) throws -> Int64 {
        if let id = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM \(table) WHERE \(column) = ?"), arguments: [value])
        {
            return id
        }
        try db.cachedStatement(sql: "INSERT INTO \(table) (\(column)) VALUES (?)").execute(arguments: [value])
        return db.lastInsertedRowID
    }

    /// What a read selects: the row's own columns with its sender, receiver and tag as text.
    static let selectRecords = """
        SELECT t.tx_id, t.block_time, t.kind, s.address AS sender, r.address AS receiver, t.amount, g.tag, t.body,
               t.payload, t.nonce, t.signature, t.seq, t.accepting_block, t.accepting_daa_score
        FROM kasia_tx t CROSS JOIN kasia_address s ON s.id = t.sender_id CROSS JOIN kasia_tag g ON g.id = t.tag_id
             LEFT JOIN kasia_address r ON r.id = t.receiver_id
        """
}
