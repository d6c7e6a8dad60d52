import TandemTesting
import Testing

@testable import TandemServer

/// `CookieHeader.value` scans each header once without splitting it (issue 29, get-session).
/// It must read exactly what betterauth-api.md §13 says better-call reads: split on `;`, trim
/// spaces and tabs, skip pieces without `=`, first occurrence of the name wins. The model below
/// is that sentence, written the plain way.
@Suite struct CookieHeaderTests {
    static func model(_ name: String, _ headers: [String]) -> String? {
        for header in headers {
            for piece in header.utf8.split(separator: UInt8(ascii: ";")) {
                let trimmed = piece.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }
                let bytes = Array(trimmed.reversed())
                guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
                if bytes[..<equals].elementsEqual(name.utf8) {
                    return String(decoding: bytes[(equals + 1)...], as: UTF8.self)
                }
            }
        }
        return nil
    }

    @Test(
        arguments: [
            (["a=1; better-auth.session_token=tok; b=2"], "tok"),
            (["better-auth.session_token=first; better-auth.session_token=second"], "first"),
            (["x=1", " \tbetter-auth.session_token = v ;"], nil),
            (["x=1", " \tbetter-auth.session_token=v\t ;"], "v"),
            ([";;better-auth.session_token=;"], ""),
            (["better-auth.session_token"], nil),
            (["better-auth.session_token=a=b"], "a=b"),
            ([], nil),
        ] as [([String], String?)])
    func readsTheNamedCookie(headers: [String], expected: String?) {
        #expect(CookieHeader.value(named: "better-auth.session_token", inHeaders: headers) == expected)
        #expect(Self.model("better-auth.session_token", headers) == expected)
    }

    /// Random headers from a small alphabet that makes every case common: separators, spaces,
    /// tabs, `=`, the name and its prefixes, non-ASCII text. The scan agrees with the model.
    @Test func agreesWithTheModelOnRandomHeaders() {
        var random = SeededRandom(seed: 29)
        let name = "sid"
        let parts = ["sid", "si", "sidx", "=", ";", " ", "\t", "v", "é", "%3D", "sid=", "; sid=", "=="]
        var found = 0
        for _ in 0..<4_000 {
            let headers = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                (0..<Int.random(in: 0...8, using: &random)).map { _ in parts.randomElement(using: &random) ?? "" }
                    .joined()
            }
            let expected = Self.model(name, headers)
            if expected != nil { found += 1 }
            #expect(CookieHeader.value(named: name, inHeaders: headers) == expected, "\(headers)")
        }
        #expect(found > 500, "the generator rarely produced the cookie")
    }
}
