/// A strict RFC 8259 parser that accepts only I-JSON (RFC 7493), as spec §2 requires of node
/// text: valid UTF-8, no duplicate member names, no lone surrogates, finite doubles only.
///
/// It works on a borrowed byte buffer and builds `JSONValue`s directly; there is no tokenizer
/// pass and no Foundation, so parsing a node costs little next to its signature check.
public struct JSONParser: Sendable {
    /// Resource limits; nodes are small, so generous defaults still stop hostile input early.
    public struct Limits: Sendable {
        public var maxBytes: Int
        public var maxDepth: Int

        public init(maxBytes: Int = 16 << 20, maxDepth: Int = 128) {
            self.maxBytes = maxBytes
            self.maxDepth = maxDepth
        }
    }

    public let limits: Limits

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Parses one JSON text (surrounding whitespace allowed, nothing else).
    public func parse(_ bytes: some Sequence<UInt8>) throws(CanonicalJSONError) -> JSONValue {
        let result: Result<JSONValue, CanonicalJSONError>? = bytes.withContiguousStorageIfAvailable { buffer in
            parseResult(buffer)
        }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { parseResult($0) }.get()
    }

    /// Parses the UTF-8 of `text`.
    public func parse(_ text: String) throws(CanonicalJSONError) -> JSONValue {
        var copy = text
        return try copy.withUTF8 { parseResult($0) }.get()
    }

    private func parseResult(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, CanonicalJSONError> {
        Result { () throws(CanonicalJSONError) -> JSONValue in
            guard buffer.count <= limits.maxBytes else {
                throw .inputTooLarge(size: buffer.count, limit: limits.maxBytes)
            }
            if let offset = UTF8Check.firstInvalidOffset(buffer) { throw .invalidUTF8(offset: offset) }
            var cursor = JSONCursor(bytes: buffer, maxDepth: limits.maxDepth)
            cursor.skipWhitespace()
            let value = try cursor.parseValue()
            cursor.skipWhitespace()
            if cursor.index < buffer.count { throw .trailingData(offset: cursor.index) }
            return value
        }
    }
}
