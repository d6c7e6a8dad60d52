import Crypto
import Foundation
import TandemBasics

/// Signs and verifies the session cookie value like better-call (betterauth-api.md §5):
/// `token "." base64(HMAC-SHA256(secret, token))`, URL-encoded on the wire; accepted back
/// encoded or decoded (the Expo client re-sends it decoded).
public struct CookieSigner: Sendable {
    private let key: SymmetricKey

    public init(secret: String) {
        key = SymmetricKey(data: Array(secret.utf8))
    }

    /// The `Set-Cookie` value: signed and percent-encoded.
    public func cookieValue(for token: SessionToken) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array(token.value.utf8), using: key)
        let signed = token.value + "." + Data(mac).base64EncodedString()
        return Self.percentEncode(signed)
    }

    /// The token inside a cookie value, or nil when the value is malformed or its signature
    /// is wrong (then the request is treated as having no cookie). Verification is constant-time.
    public func token(fromCookieValue raw: String) -> SessionToken? {
        guard let value = Self.percentDecode(raw) else { return nil }
        guard let dot = value.lastIndex(of: ".") else { return nil }
        let token = String(value[..<dot])
        let signature = String(value[value.index(after: dot)...])
        guard !token.isEmpty, signature.utf8.count == 44, signature.hasSuffix("="),
            let mac = Data(base64Encoded: signature)
        else { return nil }
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Array(token.utf8), using: key) else {
            return nil
        }
        return SessionToken(value: token)
    }

    /// `decodeURIComponent` for the cookie value; nil on a malformed escape. Only values with a
    /// `%` are decoded, like better-call.
    static func percentDecode(_ text: String) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let byte = (try? Hex.decode(utf8: bytes[index + 1...index + 2]))?.first
                else { return nil }
                out.append(byte)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(bytes: out, encoding: .utf8)
    }

    /// `encodeURIComponent`: everything but `A-Z a-z 0-9 - _ . ! ~ * ' ( )` is escaped.
    static func percentEncode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// Built once: a `CharacterSet` from a string is costly, and every sign-in signs a cookie.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")
}
