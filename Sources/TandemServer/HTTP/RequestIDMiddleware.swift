import Foundation
import HTTPTypes
import Hummingbird
import Logging
import TandemBasics

/// Request ids in logs (issue 13 item 6): a well-formed `X-Request-Id` from the client or a
/// proxy is kept, anything else is replaced by a fresh UUID; the id is echoed on the response
/// and attached to every log line of the request as `request_id`.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let id = request.headers[.xRequestID].flatMap(Self.accepted) ?? Self.freshID()
        var context = context
        context.logger[metadataKey: "request_id"] = .string(id)
        do {
            var response = try await next(request, context)
            response.headers[.xRequestID] = id
            return response
        } catch var error as APIFailure {
            error.headers[.xRequestID] = id
            throw error
        }
    }

    /// A random (version 4) UUID in lowercase text. Foundation's `UUID()` opens, reads and
    /// closes `/dev/urandom` on every call on Linux, a measurable share of a relay submission
    /// (BENCHMARKS.md, relay); the standard library's generator is one `getrandom` call each.
    static func freshID() -> String {
        var random = SystemRandomNumberGenerator()
        let halves: [UInt64] = [random.next(), random.next()]
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<16 {
            bytes[index] = UInt8(truncatingIfNeeded: halves[index / 8] >> (56 - 8 * UInt64(index % 8)))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            Hex.append(byte, to: &text)
        }
        return String(decoding: text, as: UTF8.self)
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
