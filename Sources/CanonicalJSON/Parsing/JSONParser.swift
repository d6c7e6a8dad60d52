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

    /// Parses like `parse(_:)` and also says whether the text was already canonical (RFC 8785):
    /// byte for byte what `CanonicalJSON.canonicalBytes(of:)` writes for the value. For such a
    /// top-level object it returns that text without the `omitting` members, cut from the input:
    /// a content address of canonical text (a stored or signed Redo node) then needs no second
    /// writing of the value.
    public func parseNotingForm(_ bytes: some Sequence<UInt8>, omitting: [String] = []) throws(CanonicalJSONError)
        -> ParsedText
    {
        let result: Result<ParsedText, CanonicalJSONError>? = bytes.withContiguousStorageIfAvailable { buffer in
            parseNotingForm(buffer, omitting: omitting)
        }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { parseNotingForm($0, omitting: omitting) }.get()
    }

    private func parseNotingForm(_ buffer: UnsafeBufferPointer<UInt8>, omitting: [String]) -> Result<
        ParsedText, CanonicalJSONError
    > {
        run(buffer) { cursor in
            cursor.topLevelMembers = []
            cursor.topLevelMembers?.reserveCapacity(16)
        }.map { value, cursor in
            guard cursor.isCanonical else { return ParsedText(value: value, isCanonical: false, remainder: nil) }
            guard case .object(let object) = value, let spans = cursor.topLevelMembers else {
                return ParsedText(value: value, isCanonical: true, remainder: nil)
            }
            return ParsedText(
                value: value, isCanonical: true,
                remainder: CanonicalObjectText(buffer, members: object.members, spans: spans, omitting: omitting))
        }
    }

    private func parseResult(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, CanonicalJSONError> {
        run(buffer) { _ in }.map(\.0)
    }

    private func parseResult(_ buffer: UnsafeBufferPointer<UInt8>, keepingIntegers: Bool) -> Result<
        (JSONValue, [String: UInt64]), CanonicalJSONError
    > {
        run(buffer) { cursor in
            if keepingIntegers { cursor.topLevelIntegers = [:] }
        }.map { value, cursor in (value, cursor.topLevelIntegers ?? [:]) }
    }

    /// The one parse: limits, UTF-8, one value with optional whitespace around it.
    func run(_ buffer: UnsafeBufferPointer<UInt8>, configure: (inout JSONCursor) -> Void) -> Result<
        (JSONValue, JSONCursor), CanonicalJSONError
    > {
        Result { () throws(CanonicalJSONError) -> (JSONValue, JSONCursor) in
            guard buffer.count <= limits.maxBytes else {
                throw .inputTooLarge(size: buffer.count, limit: limits.maxBytes)
            }
            if let offset = UTF8Check.firstInvalidOffset(buffer) { throw .invalidUTF8(offset: offset) }
            var cursor = JSONCursor(bytes: buffer, maxDepth: limits.maxDepth)
            configure(&cursor)
            cursor.skipWhitespace()
            let value = try cursor.parseValue()
            cursor.skipWhitespace()
            if cursor.index < buffer.count { throw .trailingData(offset: cursor.index) }
            return (value, cursor)
        }
    }
}

/// A parsed text, and whether it was already in canonical form.
public struct ParsedText: Sendable {
    public let value: JSONValue
    /// The text was byte for byte the canonical form of `value`.
    public let isCanonical: Bool
    /// For a canonical top-level object: its text without the members the parse was asked to
    /// leave out. Nil otherwise.
    public let remainder: CanonicalObjectText?
}

/// The canonical text of an object without some of its members, and where each kept member's
/// value lies in it (in member order).
public struct CanonicalObjectText: Sendable {
    public let bytes: [UInt8]
    public let valueRanges: [Range<Int>]

    /// `members` and `spans` are the same members in the same order (a canonical text's order).
    init(
        _ text: UnsafeBufferPointer<UInt8>, members: [JSONObject.Member], spans: [JSONCursor.MemberSpan],
        omitting: [String]
    ) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(spans.count)
        bytes.append(UInt8(ascii: "{"))
        for (index, span) in zip(members.indices, spans) {
            let key = members[index].key
            if omitting.contains(where: { KeyOrder.bytesEqual($0, key) }) { continue }
            if ranges.count > 0 { bytes.append(UInt8(ascii: ",")) }
            let valueStart = bytes.count + (span.valueStart - span.start)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[span.start..<span.end]))
            ranges.append(valueStart..<bytes.count)
        }
        bytes.append(UInt8(ascii: "}"))
        self.bytes = bytes
        valueRanges = ranges
    }
}
