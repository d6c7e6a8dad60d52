import CanonicalJSON
import Foundation
import Hummingbird
import NIOCore

/// A request body read under the caps: at most `ServerLimits.maxBodyBytes` (413) and
/// `ServerLimits.maxJSONDepth` levels (400), JSON only (415 otherwise, betterauth-api.md §1).
struct JSONBody {
    /// The parsed top-level value; nil when the request had no body.
    let value: JSONValue?

    static func read(_ request: Request) async throws -> JSONBody {
        guard let buffer = try await collect(request) else { return JSONBody(value: nil) }
        return try parse(buffer)
    }

    /// Parses collected bytes under the depth cap.
    static func parse(_ buffer: ByteBuffer) throws -> JSONBody {
        let limits = JSONParser.Limits(maxBytes: ServerLimits.maxBodyBytes, maxDepth: ServerLimits.maxJSONDepth)
        do {
            return JSONBody(value: try JSONParser(limits: limits).parse(buffer.readableBytesView))
        } catch .nestingTooDeep(let limit) {
            throw APIFailure(.badRequest, .badRequest, "JSON nests deeper than \(limit) levels")
        } catch {
            throw APIFailure.invalidJSON
        }
    }

    /// Parses collected bytes under the same caps, keeping the exact value of top-level integer
    /// members (`JSONParser.parseKeepingIntegers`): one strict pass for bodies with 64-bit
    /// integers, such as the relay's submissions (issue 11 "Figures").
    static func parseKeepingIntegers(_ buffer: ByteBuffer) throws -> (value: JSONValue, integers: [String: UInt64]) {
        let limits = JSONParser.Limits(maxBytes: ServerLimits.maxBodyBytes, maxDepth: ServerLimits.maxJSONDepth)
        do {
            return try JSONParser(limits: limits).parseKeepingIntegers(buffer.readableBytesView)
        } catch .nestingTooDeep(let limit) {
            throw APIFailure(.badRequest, .badRequest, "JSON nests deeper than \(limit) levels")
        } catch {
            throw APIFailure.invalidJSON
        }
    }

    /// The body's bytes under the size cap (413) after the JSON media-type check (415); nil
    /// for an empty body. For routes that decode into a `TandemAPI` type themselves.
    /// `limit` is `ServerLimits.maxBodyBytes` except on the sync routes, whose batches are larger.
    static func collect(_ request: Request, limit: Int = ServerLimits.maxBodyBytes) async throws -> ByteBuffer? {
        let buffer: ByteBuffer
        do { buffer = try await request.body.collect(upTo: limit) } catch {
            throw APIFailure(.contentTooLarge, .payloadTooLarge, "Request body is larger than \(limit) bytes")
        }
        guard buffer.readableBytes > 0 else { return nil }
        guard let contentType = request.headers[.contentType] else {
            throw APIFailure(
                .unsupportedMediaType, .unsupportedMediaType,
                "Content-Type is required. Allowed types: application/json")
        }
        // The exact header every client sends skips the split, trim and lowercase (BENCHMARKS.md, relay).
        if contentType == "application/json" { return buffer }
        let mediaType =
            contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard mediaType == "application/json" else {
            throw APIFailure(
                .unsupportedMediaType, .unsupportedMediaType,
                "Content-Type \"\(mediaType)\" is not allowed. Allowed types: application/json")
        }
        return buffer
    }
}
