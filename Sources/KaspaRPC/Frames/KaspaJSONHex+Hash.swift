import KaspaTransaction

extension KaspaJSONHex {
    /// A 32-byte hash member (transaction id, block hash) of a node frame.
    static func decodeHash<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> [UInt8] {
        try decode(container, key, count: 32)
    }
}
