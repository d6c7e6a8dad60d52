import CanonicalJSON
import Foundation
import TandemAPI
import TandemBasics

/// Writes the get-session answer directly as bytes: the same text `APIJSON.encoder()` produces
/// (sorted keys, `null` for nil, unescaped slashes; a test compares the two), without
/// JSONEncoder's per-value boxing on the server's hottest route.
enum WireJSON {
    static func sessionResponse(_ value: SessionResponse) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(768)
        let session = value.session
        out.append(contentsOf: Array(#"{"session":{"createdAt":"#.utf8))
        string(APIJSON.formatDate(session.createdAt), &out)
        key("expiresAt", &out)
        string(APIJSON.formatDate(session.expiresAt), &out)
        key("id", &out)
        string(session.id, &out)
        key("ipAddress", &out)
        optional(session.ipAddress, &out)
        key("token", &out)
        string(session.token, &out)
        key("updatedAt", &out)
        string(APIJSON.formatDate(session.updatedAt), &out)
        key("userAgent", &out)
        optional(session.userAgent, &out)
        key("userId", &out)
        string(session.userId, &out)
        out.append(contentsOf: Array(#"},"user":"#.utf8))
        user(value.user, &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    static func user(_ user: AuthUser, _ out: inout [UInt8]) {
        out.append(contentsOf: Array(#"{"createdAt":"#.utf8))
        string(APIJSON.formatDate(user.createdAt), &out)
        key("displayUsername", &out)
        optional(user.displayUsername, &out)
        key("email", &out)
        string(user.email, &out)
        key("emailVerified", &out)
        out.append(contentsOf: Array((user.emailVerified ? "true" : "false").utf8))
        key("id", &out)
        string(user.id, &out)
        key("image", &out)
        optional(user.image, &out)
        key("name", &out)
        string(user.name, &out)
        key("updatedAt", &out)
        string(APIJSON.formatDate(user.updatedAt), &out)
        key("username", &out)
        optional(user.username, &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `{"code","message"}` of every refusal, as `APIJSON.encoder()` writes it (sorted keys,
    /// `code` left out when nil; a test compares the two). JSONEncoder cost ≈ 6 µs of server CPU
    /// per error answer, 7 % of an empty POST answered 410 (BENCHMARKS.md, relay, session 8).
    static func errorBody(_ body: APIErrorBody) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.message.utf8.count + (body.code?.utf8.count ?? 0) + 24)
        out.append(UInt8(ascii: "{"))
        if let code = body.code {
            string("code", &out)
            out.append(UInt8(ascii: ":"))
            string(code, &out)
            out.append(UInt8(ascii: ","))
        }
        string("message", &out)
        out.append(UInt8(ascii: ":"))
        string(body.message, &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The `POST /api/redo/nodes` answer, as `APIJSON.encoder()` writes it (sorted keys, `code`
    /// and `message` left out when nil; a test compares the two): JSONEncoder boxed each of a
    /// push's 500 results (issue 49 item 6, sync per core).
    static func redoNodePushResponse(_ response: RedoNodePushResponse) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16 + response.results.count * 100)
        out.append(contentsOf: #"{"results":["#.utf8)
        for (index, result) in response.results.enumerated() {
            out.append(contentsOf: (index == 0 ? #"{"# : #",{"#).utf8)
            if let code = result.code {
                out.append(contentsOf: #""code":"#.utf8)
                string(code, &out)
                out.append(UInt8(ascii: ","))
            }
            out.append(contentsOf: #""id":"#.utf8)
            string(result.id, &out)
            if let message = result.message {
                key("message", &out)
                string(message, &out)
            }
            key("status", &out)
            string(result.status.rawValue, &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }

    private static func key(_ name: String, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        string(name, &out)
        out.append(UInt8(ascii: ":"))
    }

    private static func optional(_ value: String?, _ out: inout [UInt8]) {
        if let value { string(value, &out) } else { out.append(contentsOf: Array("null".utf8)) }
    }

    /// A JSON string, escaped as CanonicalJSON escapes it.
    static func string(_ text: String, _ out: inout [UInt8]) {
        CanonicalWriter.appendString(text, to: &out)
    }
}
