import HTTPTypes
import Hummingbird

/// Reads the `Cookie` header the way better-call does (betterauth-api.md §13): split on `;`,
/// trim, skip pieces without `=`, first occurrence of a name wins. Values stay raw; the signer
/// URL-decodes them.
enum CookieHeader {
    static func value(named name: String, in request: Request) -> String? {
        value(named: name, inHeaders: request.headers[values: .cookie])
    }

    /// The same over the raw `Cookie` header values, which is what the fuzz target feeds.
    /// One pass over each header's bytes, without splitting it into an array (every request
    /// with a cookie reads it).
    static func value(named name: String, inHeaders headers: some Sequence<String>) -> String? {
        for header in headers {
            let bytes = header.utf8[...]
            var start = bytes.startIndex
            while start < bytes.endIndex {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
                let trimmed = trimSpaces(bytes[start..<end])
                if let equals = trimmed.firstIndex(of: UInt8(ascii: "=")), trimmed[..<equals].elementsEqual(name.utf8) {
                    return String(decoding: trimmed[trimmed.index(after: equals)...], as: UTF8.self)
                }
                guard end < bytes.endIndex else { break }
                start = bytes.index(after: end)
            }
        }
        return nil
    }

    /// Drops spaces and tabs at both ends (byte-wise: this runs on every request).
    private static func trimSpaces(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else {
            return bytes[bytes.startIndex..<bytes.startIndex]
        }
        return bytes[first...last]
    }

    static func hasCookies(_ request: Request) -> Bool {
        request.headers[values: .cookie].contains { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }
}

/// `Set-Cookie` values for the session cookie (betterauth-api.md §5): `Max-Age` only, never
/// `Expires`; `Path=/; HttpOnly; SameSite=Lax`, `Secure` when configured.
struct SessionCookies: Sendable {
    let name: String
    let secure: Bool

    init(secure: Bool) {
        self.secure = secure
        name = secure ? "__Secure-better-auth.session_token" : "better-auth.session_token"
    }

    var dontRememberName: String { secure ? "__Secure-better-auth.dont_remember" : "better-auth.dont_remember" }

    /// The cookie for a new or refreshed session; `maxAge` nil makes a browser-session cookie.
    func set(_ value: String, maxAge: Int?) -> String {
        attributes(name + "=" + value + (maxAge.map { "; Max-Age=\($0)" } ?? ""))
    }

    /// Cookies that delete the session cookies.
    var expiring: [String] {
        [attributes(name + "=; Max-Age=0"), attributes(dontRememberName + "=; Max-Age=0")]
    }

    private func attributes(_ head: String) -> String {
        head + "; Path=/; HttpOnly" + (secure ? "; Secure" : "") + "; SameSite=Lax"
    }

    static func append(_ cookies: [String], to headers: inout HTTPFields) {
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
    }
}
