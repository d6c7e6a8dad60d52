import HTTPTypes
import TandemBasics

/// Request ids in logs (issue 13 item 6): a well-formed `X-Request-Id` from the client or a
/// proxy is kept, anything else is replaced by a fresh UUID; `FrontDoorMiddleware` echoes the id
/// on the response and attaches it to every log line of the request as `request_id`.
enum RequestID {
    /// The request's own id when it is acceptable, or a fresh one.
    static func of(_ fields: HTTPFields) -> String {
        fields[.xRequestID].flatMap(accepted) ?? fresh()
    }

    /// A version 4 UUID in lowercase text, without a system call: a counter mixed with a key
    /// drawn once per process from the system's generator. The 64-bit mix is a bijection, so ids
    /// never repeat within a process, and the key makes them unlike another process's. Two
    /// `getrandom` calls per request cost about 3 % of a get-session's server CPU, kernel time
    /// included (BENCHMARKS.md, issue 29); a request id names a request in logs, it guards nothing.
    static func fresh() -> String {
        let count = counter.withLock { next in
            defer { next &+= 1 }
            return next
        }
        let high = mix(count ^ key.high)
        let low = mix(count &+ key.low)
        return String(unsafeUninitializedCapacity: 36) { text in
            var written = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[written] = UInt8(ascii: "-")
                    written += 1
                }
                let half = index < 8 ? high : low
                var byte = UInt8(truncatingIfNeeded: half >> (56 - 8 * UInt64(index % 8)))
                if index == 6 { byte = (byte & 0x0F) | 0x40 }
                if index == 8 { byte = (byte & 0x3F) | 0x80 }
                text[written] = digit(byte >> 4)
                text[written + 1] = digit(byte & 0x0F)
                written += 2
            }
            return written
        }
    }

    private static let key: (high: UInt64, low: UInt64) = {
        var random = SystemRandomNumberGenerator()
        return (random.next(), random.next())
    }()

    private static let counter = Locked<UInt64>(0)

    /// SplitMix64's finalizer: an invertible mix of 64 bits.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// 1–128 characters of `[A-Za-z0-9._-]`: safe in a log line and a header.
    static func accepted(_ value: String) -> String? {
        guard (1...128).contains(value.utf8.count),
            value.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            })
        else { return nil }
        return value
    }
}
