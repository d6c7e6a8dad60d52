import TandemBasics

/// Hex fields of the SDK's JSON (`to_dict`) and of node frames: decoded strictly, with the field
/// named in the error.
public enum KaspaJSONHex {
    public static func decode<Key: CodingKey>(
        _ container: KeyedDecodingContainer<Key>, _ key: Key, count: Int? = nil
    ) throws -> [UInt8] {
        let text = try container.decode(String.self, forKey: key)
        return try bytes(text, key: key, container: container, count: count)
    }

    /// `null`, a missing key and `""` all mean no bytes (the SDK writes `null` for an empty script).
    public static func decodeOptional<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws
        -> [UInt8]
    {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return [] }
        return try bytes(text, key: key, container: container, count: nil)
    }

    private static func bytes<Key: CodingKey>(
        _ text: String, key: Key, container: KeyedDecodingContainer<Key>, count: Int?
    ) throws -> [UInt8] {
        let bytes: [UInt8]
        do { bytes = try Hex.decode(text) } catch {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\(key.stringValue): \(error.description)")
        }
        if let count, bytes.count != count {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "\(key.stringValue): expected \(count) bytes, got \(bytes.count)")
        }
        return bytes
    }
}
