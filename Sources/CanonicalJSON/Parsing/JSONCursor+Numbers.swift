extension JSONCursor {
    /// Parses a number per the RFC 8259 grammar and rounds it to the nearest double, like
    /// `JSON.parse` (spec §4 rule 4). Literals beyond the double range are errors, not infinity.
    mutating func parseNumber() throws(CanonicalJSONError) -> Double {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard index < bytes.count else { throw .unexpectedEnd }
        var mantissa: UInt64 = 0
        var digitCount = 0
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            digitCount = 1
        } else if isDigit(bytes[index]) {
            while index < bytes.count, isDigit(bytes[index]) {
                if digitCount < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[index] - UInt8(ascii: "0")) }
                digitCount += 1
                index += 1
            }
        } else {
            throw .malformedNumber(offset: start)
        }
        var isPlainInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isPlainInteger = false
            index += 1
            try consumeDigits(numberStart: start)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isPlainInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            try consumeDigits(numberStart: start)
        }
        // Up to 15 digits is below 2^53, so the integer converts to a double exactly.
        if isPlainInteger && digitCount <= 15 {
            // JCS writes such an integer digit for digit, except `-0` (as `0`).
            if negative && mantissa == 0 { isCanonical = false }
            let magnitude = Double(mantissa)
            return negative ? -magnitude : magnitude
        }
        let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(literal) else { throw .malformedNumber(offset: start) }
        guard value.isFinite else { throw .numberOutOfRange(literal: literal) }
        if isCanonical {
            // Rare in practice: compare with how JCS spells the value.
            var written: [UInt8] = []
            do { try NumberFormat.append(value, to: &written) } catch { isCanonical = false }
            if !written.elementsEqual(UnsafeBufferPointer(rebasing: bytes[start..<index])) { isCanonical = false }
        }
        return value
    }

    private mutating func consumeDigits(numberStart: Int) throws(CanonicalJSONError) {
        let first = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        if index == first {
            if index >= bytes.count { throw .unexpectedEnd }
            throw .malformedNumber(offset: numberStart)
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
