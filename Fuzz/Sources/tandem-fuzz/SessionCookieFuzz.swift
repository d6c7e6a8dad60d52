import TandemAPI

@testable import TandemServer

/// The `Cookie` header of every request (betterauth-api.md §5, §13). The input is the header's
/// text, split into header lines at newline bytes. Whatever the session cookie's value is, the
/// signer either refuses it or yields a token whose own signed cookie reads back as the same
/// token; a value signed with another secret never verifies; and every non-empty token text
/// survives sign ∘ read.
enum SessionCookieFuzz {
    static let signer = CookieSigner(secret: "fuzz-secret-0123456789abcdef0123456789")
    static let otherSigner = CookieSigner(secret: "another-secret-0123456789abcdef012345")

    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let headers = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        if let value = CookieHeader.value(named: AuthCookie.sessionTokenName, inHeaders: headers) {
            invariant(!value.utf8.contains(UInt8(ascii: ";")), "a cookie value ran past its `;`")
            if let token = signer.token(fromCookieValue: value) {
                invariant(!token.value.isEmpty, "an empty token verified")
                let again = signer.token(fromCookieValue: signer.cookieValue(for: token))
                invariant(again?.value == token.value, "a verified token does not survive sign ∘ read")
                invariant(otherSigner.token(fromCookieValue: value) == nil, "a value verified under two secrets")
            }
        }
        // The raw input as a token: signing then reading gives it back, encoded or decoded.
        guard !text.isEmpty else { return }
        let signed = signer.cookieValue(for: SessionToken(value: text))
        invariant(signer.token(fromCookieValue: signed)?.value == text, "sign ∘ read changed a token")
        // The decoded form reads back unless it still holds a `%` byte (then it is decoded a second
        // time, as better-call does). Bytes, not Characters: a `%` followed by a combining mark is
        // one grapheme that is not equal to "%".
        if let decoded = CookieSigner.percentDecode(signed) {
            invariant(
                signer.token(fromCookieValue: decoded)?.value == text
                    || decoded.utf8.contains(UInt8(ascii: "%")),
                "the decoded form of a signed value does not read back")
        }
        invariant(otherSigner.token(fromCookieValue: signed) == nil, "another secret verified a signed value")
    }
}
