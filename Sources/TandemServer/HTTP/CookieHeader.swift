import HTTPTypes
import Hummingbird

/// Reads the `Cookie` header the way better-call does (betterauth-api.md §13): split on `;`,
/// trim, skip pieces without `=`, first occurrence of a name wins. Values stay raw; the signer
/// URL-decodes them.
enum CookieHeader {
    static func value(named name: String, in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for piece in header.split(separator: ";") {
                let trimmed = piece.trimmingCharacters(in: .whitespaces)
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                if trimmed[..<equals] == name { return String(trimmed[trimmed.index(after: equals)...]) }
            }
        }
        return nil
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
