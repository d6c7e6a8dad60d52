import Foundation
import TandemServer
import Testing

/// Vectors quoted from betterauth-api.md (checked there with Node crypto and Python).
@Suite struct CryptoVectorTests {
    /// §7: scrypt N=16384 r=16 p=1, salt = the hex string's bytes.
    @Test func passwordHashMatchesBetterAuthVector() throws {
        let expected =
            "0123456789abcdef0123456789abcdef:74369303c2129f51b1d88426bc1ea315373e0161c8b065ebff3c355c80ef17331fbba17d67d0aa89370462b5143bdbc1edf3080c5a0721978639f914aa7aeb4f"
        let hasher = PasswordHasher()
        #expect(try hasher.hash("password1234", saltHex: "0123456789abcdef0123456789abcdef") == expected)
        #expect(hasher.verify("password1234", against: expected))
        #expect(!hasher.verify("password1235", against: expected))
    }

    @Test(arguments: ["", "nocolon", "abc:zz", "0123:", ":abcd"])
    func malformedStoredHashesNeverMatch(stored: String) {
        #expect(!PasswordHasher().verify("password1234", against: stored))
    }

    @Test func passwordsAreNFKCNormalisedBeforeHashing() throws {
        let hasher = PasswordHasher()
        let stored = try hasher.hash("ﬁne password")  // U+FB01 LATIN SMALL LIGATURE FI
        #expect(hasher.verify("fine password", against: stored))
    }

    /// §5: signed cookie value for a known secret and token.
    @Test func cookieSignatureMatchesBetterCallVector() {
        let signer = CookieSigner(secret: "test-secret-0123456789abcdef0123456789")
        let token = SessionToken(value: "AbCdEfGhIjKlMnOpQrStUvWxYz012345")
        let expected = "AbCdEfGhIjKlMnOpQrStUvWxYz012345.OVpRClpfvN0ee%2Bhx1C4lgPff4CWs%2BvGdrzGaB8xCjPA%3D"
        #expect(signer.cookieValue(for: token) == expected)
        #expect(signer.token(fromCookieValue: expected) == token)
        #expect(signer.token(fromCookieValue: expected.removingPercentEncoding ?? "") == token)
        #expect(CookieSigner(secret: "another-secret-0123456789abcdef01234").token(fromCookieValue: expected) == nil)
    }

    /// Found by the session-cookie fuzz target: a token with a `%` followed by a combining mark
    /// (one grapheme, U+0025 U+031D). Signed then read it is the same token; its decoded form
    /// still holds a `%` byte that is no escape, so it is refused instead of misread.
    @Test func percentFollowedByACombiningMarkSurvivesSignAndRead() {
        let signer = CookieSigner(secret: "test-secret-0123456789abcdef0123456789")
        let token = SessionToken(value: "\u{FFFD}kE%\u{031D}b[")
        let signed = signer.cookieValue(for: token)
        #expect(signer.token(fromCookieValue: signed) == token)
        let decoded = signed.removingPercentEncoding
        #expect(decoded?.utf8.contains(UInt8(ascii: "%")) == true)
        #expect(signer.token(fromCookieValue: decoded ?? "") == nil)
    }
}
