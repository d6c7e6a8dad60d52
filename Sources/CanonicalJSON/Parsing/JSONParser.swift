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

    /// Parses like `parse(_:)` and also returns the exact value of every
    /// top-level member whose value is a plain non-negative integer literal that fits `UInt64`.
    ///
    /// Numbers in a `JSONValue` are doubles (spec §4), which lose bits above 2^53; a request body
    /// that carries 64-bit integers (the relay's `nonce`, issue 11) reads them from here, so
    /// the body is parsed once and still gets every strict check (duplicate names included).
    public func parseKeepingIntegers(_ bytes: some Sequence<UInt8>) throws(CanonicalJSONError) -> (
        value: JSONValue, integers: [String: UInt64]
    ) {
        let result: Result<(JSONValue, [String: UInt64]), CanonicalJSONError>? =
            bytes.withContiguousStorageIfAvailable { buffer in
                parseResult(buffer, keepingIntegers: true)
            }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { parseResult($0, keepingIntegers: true) }.get()
    }

    private func parseResult(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, CanonicalJSONError> {
        parseResult(buffer, keepingIntegers: false).map(\.0)
    }

    private func parseResult(_ buffer: UnsafeBufferPointer<UInt8>, keepingIntegers: Bool) -> Result<
        (JSONValue, [String: UInt64]), CanonicalJSONError
    > {
        Result { () throws(CanonicalJSONError) -> (JSONValue, [String: UInt64]) in
            guard buffer.count <= limits.maxBytes else {
                throw .inputTooLarge(size: buffer.count, limit: limits.maxBytes)
            }
            if let offset = UTF8Check.firstInvalidOffset(buffer) { throw .invalidUTF8(offset: offset) }
            var cursor = JSONCursor(bytes: buffer, maxDepth: limits.maxDepth)
            if keepingIntegers { cursor.topLevelIntegers = [:] }
            cursor.skipWhitespace()
            let value = try cursor.parseValue()
            cursor.skipWhitespace()
            if cursor.index < buffer.count { throw .trailingData(offset: cursor.index) }
            return (value, cursor.topLevelIntegers ?? [:])
        }
    }
}
