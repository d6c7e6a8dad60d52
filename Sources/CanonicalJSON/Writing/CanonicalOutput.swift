/// A one-pass JCS writer over memory it does not own (``CanonicalWriter/bytes(capacity:_:)``).
///
/// Every append checks the room left once; past the end it writes nothing more and marks the
/// output overflowed, and ``CanonicalWriter/bytes(capacity:_:)`` runs the writing again with
/// more room. A streaming output (``CanonicalWriter/stream(_:into:)``) instead hands its full
/// memory to a drain and starts again at the front. Valid only inside the closure it is passed to.
public struct CanonicalOutput: ByteSink {
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int
    @usableFromInline var position: Int
    /// Whether a write ran past the end (the bytes are then incomplete).
    @usableFromInline var overflowed: Bool
    /// Where a streaming output sends its bytes when its memory is full; nil for one pass.
    @usableFromInline let drain: ((UnsafeRawBufferPointer) -> Void)?
    /// The bytes already handed to the drain.
    @usableFromInline var drained: Int

    /// The bytes written so far.
    public var count: Int { drained + position }

    @usableFromInline
    init(base: UnsafeMutablePointer<UInt8>, capacity: Int, drain: ((UnsafeRawBufferPointer) -> Void)? = nil) {
        self.base = base
        self.capacity = capacity
        position = 0
        overflowed = false
        self.drain = drain
        drained = 0
    }

    /// Appends one raw byte (structural characters for callers that stream a value).
    @inlinable
    public mutating func appendByte(_ byte: UInt8) {
        append(byte)
    }

    @inlinable
    mutating func append(_ byte: UInt8) {
        guard position < capacity else {
            appendPastEnd(byte)
            return
        }
        base[position] = byte
        position += 1
    }

    @inlinable
    mutating func append(contentsOf run: UnsafeBufferPointer<UInt8>) {
        guard run.count <= capacity - position else {
            appendPastEnd(contentsOf: run)
            return
        }
        if let source = run.baseAddress {
            (base + position).update(from: source, count: run.count)
        }
        position += run.count
    }

    /// The slow path of a byte that does not fit: a one-pass output marks itself overflowed, a
    /// streaming one drains its memory first.
    @usableFromInline
    mutating func appendPastEnd(_ byte: UInt8) {
        withUnsafeBytes(of: byte) { appendPastEnd(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
    }

    /// The slow path of a run that does not fit: a one-pass output marks itself overflowed, a
    /// streaming one drains its memory and then takes the run (or drains a run larger than its
    /// memory directly).
    @usableFromInline
    mutating func appendPastEnd(contentsOf run: UnsafeBufferPointer<UInt8>) {
        guard let drain else {
            overflowed = true
            return
        }
        flush()
        guard run.count <= capacity, let source = run.baseAddress else {
            drain(UnsafeRawBufferPointer(run))
            drained += run.count
            return
        }
        base.update(from: source, count: run.count)
        position = run.count
    }

    /// Hands what the memory holds to the drain (a streaming output's last step).
    @usableFromInline
    mutating func flush() {
        guard let drain, position > 0 else { return }
        drain(UnsafeRawBufferPointer(start: base, count: position))
        drained += position
        position = 0
    }

    /// Appends the canonical form of `value`.
    public mutating func write(_ value: JSONValue) throws(CanonicalJSONError) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(let number): try NumberFormat.append(number, to: &self)
        case .string(let string): writeString(string)
        case .array(let elements):
            append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { append(UInt8(ascii: ",")) }
                first = false
                try write(element)
            }
            append(UInt8(ascii: "]"))
        case .object(let object):
            try write(object)
        }
    }

    /// Appends the canonical form of an object (members are already in JCS order).
    public mutating func write(_ object: JSONObject) throws(CanonicalJSONError) {
        append(UInt8(ascii: "{"))
        var first = true
        for member in object.members {
            if !first { append(UInt8(ascii: ",")) }
            first = false
            writeString(member.key)
            append(UInt8(ascii: ":"))
            try write(member.value)
        }
        append(UInt8(ascii: "}"))
    }

    /// Appends a string literal with JCS's minimal escaping (``CanonicalWriter/appendString(_:to:)``).
    public mutating func writeString(_ string: String) {
        CanonicalWriter.appendEscaped(string, to: &self)
    }

    private mutating func append(_ literal: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
