import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Request ids in logs (issue 13 item 6): a well-formed `X-Request-Id` from the client or a
/// proxy is kept, anything else is replaced by a fresh UUID; the id is echoed on the response
/// and attached to every log line of the request as `request_id`.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let id = request.headers[.xRequestID].flatMap(Self.accepted) ?? UUID().uuidString.lowercased()
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
