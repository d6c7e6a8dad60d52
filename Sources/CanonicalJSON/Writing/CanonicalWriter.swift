/// Appends the RFC 8785 (JCS) form of values to a byte buffer (spec §4).
///
/// Each `write` is one pass of a ``CanonicalOutput`` over memory sized in advance, so hashing a
/// node costs little more than one pass over its bytes: no per-byte capacity or uniqueness checks,
/// no intermediate strings except for the rare non-integral number.
public struct CanonicalWriter: Sendable {
    /// The canonical UTF-8 written so far.
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer; its capacity stays the room the next write starts with.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Appends the canonical form of `value`.
    public mutating func write(_ value: JSONValue) throws(CanonicalJSONError) {
        try append { output throws(CanonicalJSONError) in try output.write(value) }
    }

    /// Appends the canonical form of an object (members are already in JCS order).
    public mutating func write(_ object: JSONObject) throws(CanonicalJSONError) {
        try append { output throws(CanonicalJSONError) in try output.write(object) }
    }

    /// Appends a string literal with JCS's minimal escaping (``appendString(_:to:)``).
    public mutating func writeString(_ string: String) {
        Self.appendString(string, to: &bytes)
    }

    /// Appends one raw byte (structural characters for callers that stream a value).
    public mutating func appendByte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends what `body` writes (``bytes(capacity:_:)``), starting from the room left in the
    /// buffer. A first write takes the written array as it is; later ones copy only the new bytes.
    private mutating func append(
        _ body: (inout CanonicalOutput) throws(CanonicalJSONError) -> Void
    ) throws(CanonicalJSONError) {
        let written = try Self.bytes(capacity: max(bytes.capacity - bytes.count, 256), body)
        if bytes.isEmpty {
            bytes = written
        } else {
            bytes.append(contentsOf: written)
        }
    }

    /// The bytes `body` writes to a fresh output of `capacity` bytes, or of twice as many,
    /// again and again, until they fit. `body` must write the same bytes each time it runs.
    ///
    /// A node's body or a response is written in one pass this way; the output is valid only
    /// inside `body`.
    public static func bytes(
        capacity: Int, _ body: (inout CanonicalOutput) throws(CanonicalJSONError) -> Void
    ) throws(CanonicalJSONError) -> [UInt8] {
        var room = max(capacity, 16)
        while true {
            var failure: CanonicalJSONError?
            var overflowed = false
            let result = [UInt8](unsafeUninitializedCapacity: room) { buffer, initialized in
                guard let base = buffer.baseAddress else { return }
                var output = CanonicalOutput(base: base, capacity: buffer.count)
                do throws(CanonicalJSONError) {
                    try body(&output)
                } catch {
                    failure = error
                }
                overflowed = output.overflowed
                initialized = overflowed ? 0 : output.count
            }
            if let failure { throw failure }
            if !overflowed { return result }
            room *= 2
        }
    }

    /// Runs `body` over 1 KiB of stack memory and hands what it writes to `sink`, a chunk each
    /// time the memory fills and the rest at the end: the bytes are never gathered in an array.
    /// For a value that is hashed and dropped, such as a node's body on its way to a content id.
    /// When `body` throws, `sink` may have seen part of the bytes.
    ///
    /// Inlinable, so it is specialized where it is called.
    @inlinable
    public static func stream(
        _ body: (inout CanonicalOutput) throws(CanonicalJSONError) -> Void,
        into sink: (UnsafeRawBufferPointer) -> Void
    ) throws(CanonicalJSONError) {
        var failure: CanonicalJSONError?
        // 1 KiB: larger temporary allocations are not taken from the stack on every platform.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { scratch in
            guard let base = scratch.baseAddress else { return }
            withoutActuallyEscaping(sink) { drain in
                var output = CanonicalOutput(base: base, capacity: scratch.count, drain: drain)
                do throws(CanonicalJSONError) {
                    try body(&output)
                    output.flush()
                } catch {
                    failure = error
                }
            }
        }
        if let failure { throw failure }
    }

    /// Appends a JSON string literal with JCS's minimal escaping: `\"`, `\\`, the five short
    /// control escapes, `\u00xx` (lowercase) for other controls; everything else, `/` and
    /// non-ASCII included, as raw UTF-8. The one string escaper of the project: the server's
    /// hand-written response bodies use it too.
    public static func appendString(_ string: String, to bytes: inout [UInt8]) {
        appendEscaped(string, to: &bytes)
    }

    /// ``appendString(_:to:)`` for any sink.
    static func appendEscaped<Sink: ByteSink>(_ string: String, to sink: inout Sink) {
        sink.append(UInt8(ascii: "\""))
        KeyOrder.withUTF8(string) { utf8 in
            // Copy runs of bytes that need no escape in one go; escapes are rare.
            var runStart = 0
            while true {
                let special = ByteScan.firstStringSpecial(in: utf8, from: runStart)
                if special > runStart {
                    sink.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<special]))
                }
                guard special < utf8.count else { break }
                appendEscape(utf8[special], to: &sink)
                runStart = special + 1
            }
        }
        sink.append(UInt8(ascii: "\""))
    }

    private static func appendEscape<Sink: ByteSink>(_ byte: UInt8, to sink: inout Sink) {
        sink.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: sink.append(UInt8(ascii: "\""))
        case 0x5C: sink.append(UInt8(ascii: "\\"))
        case 0x08: sink.append(UInt8(ascii: "b"))
        case 0x0C: sink.append(UInt8(ascii: "f"))
        case 0x0A: sink.append(UInt8(ascii: "n"))
        case 0x0D: sink.append(UInt8(ascii: "r"))
        case 0x09: sink.append(UInt8(ascii: "t"))
        default:
            // `u00` and two lowercase hex digits, read from a table in place (no array per escape).
            let digits: StaticString = "0123456789abcdef"
            sink.append(UInt8(ascii: "u"))
            sink.append(UInt8(ascii: "0"))
            sink.append(UInt8(ascii: "0"))
            sink.append(digits.utf8Start[Int(byte >> 4)])
            sink.append(digits.utf8Start[Int(byte & 0x0F)])
        }
    }
}

/// Where JCS bytes go: a growable array, or a ``CanonicalOutput``'s fixed memory.
protocol ByteSink {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf run: UnsafeBufferPointer<UInt8>)
}

extension Array: ByteSink where Element == UInt8 {}
