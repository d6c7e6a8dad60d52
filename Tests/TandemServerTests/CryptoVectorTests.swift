import Crypto
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
        // A server hashes at these parameters unless a test says otherwise, and another cost
        // does not verify BetterAuth's hash (the stored form does not say its N).
        #expect(ServerConfiguration().passwordHasher.rounds == PasswordHasher.betterAuthRounds)
        #expect(!PasswordHasher(rounds: 16).verify("password1234", against: expected))
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

    /// The signer encodes bytes itself; its output must be exactly `encodeURIComponent`'s, here
    /// Foundation's percent-encoding with the same unreserved set, over text from every plane.
    @Test(arguments: [
        "AbCdEf012345", "a b;c,d=e", "-_.!~*'()", "%41%", "é\u{301}", "日本語", "🙂👍🏽", "\u{0}\u{7F}\u{80}",
        "\u{FEFF}x\u{FFFD}", "+/=?&#[]@$",
    ])
    func signedCookieIsEncodeURIComponentOfTokenDotSignature(text: String) {
        let secret = "test-secret-0123456789abcdef0123456789"
        let signer = CookieSigner(secret: secret)
        let mac = HMAC<SHA256>.authenticationCode(for: Array(text.utf8), using: SymmetricKey(data: Array(secret.utf8)))
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")
        let expected = (text + "." + Data(mac).base64EncodedString()).addingPercentEncoding(
            withAllowedCharacters: unreserved)
        #expect(signer.cookieValue(for: SessionToken(value: text)) == expected)
        #expect(signer.token(fromCookieValue: expected ?? "")?.value == text)
    }

    /// A `.` after a prepended mark (U+0600) is one grapheme with it, so a Character search for
    /// the last `.` missed the separator and the signer's own cookie did not read back. The split
    /// is at the last `.` byte, as better-call's `lastIndexOf`.
    @Test func tokenEndingInAPrependedMarkSurvivesSignAndRead() {
        let signer = CookieSigner(secret: "test-secret-0123456789abcdef0123456789")
        let token = SessionToken(value: "abc\u{0600}")
        #expect(signer.token(fromCookieValue: signer.cookieValue(for: token)) == token)
        #expect(signer.token(fromCookieValue: signer.cookieValue(for: token).removingPercentEncoding ?? "") == token)
    }

    /// A malformed escape or escaped bytes that are not UTF-8 are no cookie at all.
    @Test(arguments: ["abc%", "abc%4", "abc%zz.x", "%FF%FE.AAAA", "%C3%28.AAAA"])
    func malformedEscapesAreRefused(value: String) {
        #expect(CookieSigner(secret: "test-secret-0123456789abcdef0123456789").token(fromCookieValue: value) == nil)
    }
}
