import Crypto
import Foundation
import TandemBasics

/// Signs and verifies the session cookie value like better-call (betterauth-api.md §5):
/// `token "." base64(HMAC-SHA256(secret, token))`, URL-encoded on the wire; accepted back
/// encoded or decoded (the Expo client re-sends it decoded).
public struct CookieSigner: Sendable {
    /// HMAC-SHA256 keyed with the secret and nothing hashed yet. Each signature starts from a
    /// copy (the hash states are copied on write), so the key's two pad blocks are hashed once,
    /// not on every request that carries a cookie.
    private let keyed: HMAC<SHA256>

    public init(secret: String) {
        keyed = HMAC(key: SymmetricKey(data: Array(secret.utf8)))
    }

    private func mac(of bytes: some DataProtocol) -> HMAC<SHA256>.MAC {
        var hmac = keyed
        hmac.update(data: bytes)
        return hmac.finalize()
    }

    /// The `Set-Cookie` value: signed and percent-encoded.
    public func cookieValue(for token: SessionToken) -> String {
        let mac = mac(of: Array(token.value.utf8))
        let signed = token.value + "." + Data(mac).base64EncodedString()
        return Self.percentEncode(signed)
    }

    /// The token inside a cookie value, or nil when the value is malformed or its signature
    /// is wrong (then the request is treated as having no cookie). Verification is constant-time.
    /// The split is at the last `.` byte, as better-call's `lastIndexOf` does: a Character search
    /// would miss a `.` that joins the grapheme before it (after a prepended mark such as U+0600).
    public func token(fromCookieValue raw: String) -> SessionToken? {
        Self.percentDecode(raw).flatMap(token(fromDecodedValue:))
    }

    /// ``token(fromCookieValue:)`` for a value already percent-decoded (once, as better-call
    /// decodes it: a value is never decoded twice).
    func token(fromDecodedValue value: String) -> SessionToken? {
        let bytes = Array(value.utf8)
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        let token = bytes[..<dot]
        let signature = bytes[(dot + 1)...]
        guard !token.isEmpty, signature.count == 44, signature.last == UInt8(ascii: "="),
            let mac = Data(base64Encoded: Data(signature))
        else { return nil }
        // The MAC's `==` with bytes is swift-crypto's constant-time comparison.
        guard self.mac(of: token) == mac else { return nil }
        // Cut at an ASCII byte of valid UTF-8, so the token is valid UTF-8 too.
        return SessionToken(value: String(decoding: token, as: UTF8.self))
    }

    /// `decodeURIComponent` for the cookie value; nil on a malformed escape or when the bytes
    /// are not UTF-8. Only values with a `%` are decoded, like better-call.
    static func percentDecode(_ text: String) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                    let low = hexValue(bytes[index + 2])
                else { return nil }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        // ASCII is valid UTF-8 as it stands (a signed cookie is all ASCII).
        if out.allSatisfy({ $0 < 0x80 }) { return String(decoding: out, as: UTF8.self) }
        return String(strictUTF8: out)
    }

    /// `encodeURIComponent` over the UTF-8 bytes: everything but `A-Z a-z 0-9 - _ . ! ~ * ' ( )`
    /// becomes `%XX` (upper-case hex). Byte-wise, because every sign-in signs a cookie and
    /// Foundation's encoder walks Characters.
    static func percentEncode(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(upperHexDigits[Int(byte >> 4)])
                out.append(upperHexDigits[Int(byte & 0x0f)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let upperHexDigits = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "~"),
            UInt8(ascii: "*"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"):
            true
        default: false
        }
    }

    /// The value of one hex digit, either case; nil for any other byte.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
