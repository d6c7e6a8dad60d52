import KaspaTransaction

extension KaspaJSONHex {
    /// A 32-byte hash member (transaction id, block hash) of a node frame.
    static func decodeHash<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> [UInt8] {
        try decode(container, key, count: 32)
    }

    /// A 32-byte hash member that a verbosity level may leave `null` (or out).
    static func decodeHashIfPresent<Key: CodingKey>(
        _ container: KeyedDecodingContainer<Key>, _ key: Key
    ) throws -> [UInt8]? {
        guard try container.contains(key) && !container.decodeNil(forKey: key) else { return nil }
        return try decode(container, key, count: 32)
    }
}
