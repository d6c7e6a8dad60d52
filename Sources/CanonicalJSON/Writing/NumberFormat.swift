/// ECMAScript `Number.prototype.toString` for finite doubles, as RFC 8785 §3.2.2.3 requires
/// (spec §4 rule 4).
///
/// The shortest round-trip digits come from Swift's `Double.description` (which implements a
/// shortest-digits algorithm); only their layout differs from ECMAScript, so we re-lay them out:
/// plain notation for 1e-6 ≤ |x| < 1e21, otherwise `d.ddde±n`.
enum NumberFormat {
    /// Below 2^53 every integer is exactly representable, so its exact digits are the shortest.
    private static let exactIntegerLimit = 9_007_199_254_740_992.0

    static func append<Sink: ByteSink>(_ value: Double, to out: inout Sink) throws(CanonicalJSONError) {
        guard value.isFinite else { throw .nonFiniteNumber }
        if value == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        if value.magnitude < exactIntegerLimit, value == value.rounded(.towardZero) {
            appendInteger(Int64(value), to: &out)
            return
        }
        var digits: [UInt8] = []
        digits.reserveCapacity(17)
        let pointPosition = shortestDigits(of: value.magnitude, into: &digits)
        if value < 0 { out.append(UInt8(ascii: "-")) }
        layOut(digits: digits, pointPosition: pointPosition, to: &out)
    }

    /// Decimal digits d₁…dₖ (no leading/trailing zeros) and n with |x| = 0.d₁…dₖ × 10ⁿ.
    static func shortestDigits(of magnitude: Double, into digits: inout [UInt8]) -> Int {
        var exponent = 0
        var integerDigits = 0
        var seenPoint = false
        var inExponent = false
        var exponentNegative = false
        for byte in magnitude.description.utf8 {
            if inExponent {
                switch byte {
                case UInt8(ascii: "-"): exponentNegative = true
                case UInt8(ascii: "+"): break
                default: exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "."): seenPoint = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            default:
                digits.append(byte)
                if !seenPoint { integerDigits += 1 }
            }
        }
        if exponentNegative { exponent = -exponent }
        var pointPosition = integerDigits + exponent
        var leading = 0
        while leading < digits.count - 1, digits[leading] == UInt8(ascii: "0") {
            leading += 1
            pointPosition -= 1
        }
        if leading > 0 { digits.removeFirst(leading) }
        while digits.count > 1, digits[digits.count - 1] == UInt8(ascii: "0") {
            digits.removeLast()
        }
        return pointPosition
    }

    /// ECMA-262 Number::toString steps 6–10 for k digits and point position n.
    static func layOut<Sink: ByteSink>(digits: [UInt8], pointPosition n: Int, to out: inout Sink) {
        let k = digits.count
        if k <= n && n <= 21 {
            append(digits[...], to: &out)
            appendZeros(n - k, to: &out)
        } else if 0 < n && n <= 21 {
            append(digits[0..<n], to: &out)
            out.append(UInt8(ascii: "."))
            append(digits[n...], to: &out)
        } else if -6 < n && n <= 0 {
            out.append(UInt8(ascii: "0"))
            out.append(UInt8(ascii: "."))
            appendZeros(-n, to: &out)
            append(digits[...], to: &out)
        } else {
            out.append(digits[0])
            if k > 1 {
                out.append(UInt8(ascii: "."))
                append(digits[1...], to: &out)
            }
            out.append(UInt8(ascii: "e"))
            let exponent = n - 1
            out.append(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            appendInteger(Int64(exponent.magnitude), to: &out)
        }
    }

    private static func append<Sink: ByteSink>(_ digits: ArraySlice<UInt8>, to out: inout Sink) {
        digits.withUnsafeBufferPointer { out.append(contentsOf: $0) }
    }

    private static func appendZeros<Sink: ByteSink>(_ count: Int, to out: inout Sink) {
        for _ in 0..<count { out.append(UInt8(ascii: "0")) }
    }

    static func appendInteger<Sink: ByteSink>(_ value: Int64, to out: inout Sink) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var reversed:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &reversed) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            var index = count - 1
            while index >= 0 {
                out.append(buffer[index])
                index -= 1
            }
        }
    }
}
