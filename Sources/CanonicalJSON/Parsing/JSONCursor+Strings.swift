extension JSONCursor {
    /// Parses a string literal; the cursor is on the opening quote.
    ///
    /// Strings without escapes become a `String` straight from the (already validated) bytes.
    /// `\u` escapes must form valid scalars: a high surrogate must be followed by a low one.
    mutating func parseString() throws(CanonicalJSONError) -> String {
        index += 1
        let start = index
        index = ByteScan.firstStringSpecial(in: bytes, from: index)
        guard index < bytes.count else { throw .unexpectedEnd }
        if bytes[index] == UInt8(ascii: "\"") {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            index += 1
            return text
        }
        scratch.removeAll(keepingCapacity: true)
        var runStart = start
        while true {
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            guard index < bytes.count else { throw .unexpectedEnd }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte < 0x20 { throw .controlCharacterInString(offset: index) }
            try parseEscape()
            runStart = index
            index = ByteScan.firstStringSpecial(in: bytes, from: index)
        }
    }

    private mutating func parseEscape() throws(CanonicalJSONError) {
        let escapeOffset = index
        index += 1
        guard index < bytes.count else { throw .unexpectedEnd }
        let kind = bytes[index]
        index += 1
        switch kind {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"):
            // JCS writes `/` as itself.
            isCanonical = false
            scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHex4(escapeOffset: escapeOffset)
            // JCS spells only the controls without a short escape as `\u00xx`, in lowercase (below
            // 0x20, only the last of the four digits can be a letter).
            if unit >= 0x20 || Self.hasShortEscape(unit) || Self.isUppercaseHex(bytes[index - 1]) {
                isCanonical = false
            }
            var scalar = UInt32(unit)
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw .loneSurrogate(offset: escapeOffset) }
                index += 2
                let low = try readHex4(escapeOffset: index - 2)
                guard (0xDC00...0xDFFF).contains(low) else { throw .loneSurrogate(offset: escapeOffset) }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw .loneSurrogate(offset: escapeOffset)
            }
            appendUTF8(scalar)
        default:
            throw .invalidEscape(offset: escapeOffset)
        }
    }

    /// The controls JCS writes as `\b`, `\t`, `\n`, `\f` and `\r`.
    private static func hasShortEscape(_ unit: UInt16) -> Bool {
        unit == 0x08 || unit == 0x09 || unit == 0x0A || unit == 0x0C || unit == 0x0D
    }

    private static func isUppercaseHex(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F")
    }

    private mutating func readHex4(escapeOffset: Int) throws(CanonicalJSONError) -> UInt16 {
        guard index + 4 <= bytes.count else { throw .unexpectedEnd }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .invalidEscape(offset: escapeOffset)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case ..<0x80:
            scratch.append(UInt8(scalar))
        case ..<0x800:
            scratch.append(UInt8(0xC0 | (scalar >> 6)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        case ..<0x10000:
            scratch.append(UInt8(0xE0 | (scalar >> 12)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            scratch.append(UInt8(0xF0 | (scalar >> 18)))
            scratch.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}
