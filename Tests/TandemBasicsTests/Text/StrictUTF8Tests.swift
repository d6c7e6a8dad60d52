import TandemBasics
import TandemTesting
import Testing

@Suite("String(strictUTF8:) (issue 46 item 1)")
struct StrictUTF8Tests {
    @Test(
        "well-formed text decodes",
        arguments: [
            "", "hi", "ñandú", "日本語", "🙂 family: 👨‍👩‍👧", "\u{10FFFF}\u{0}\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}",
        ])
    func wellFormed(_ text: String) {
        #expect(String(strictUTF8: Array(text.utf8)) == text)
    }

    @Test(
        "malformed bytes are refused, not replaced",
        arguments: [
            [0x80],  // a continuation byte alone
            [0xC0, 0xAF],  // an overlong "/"
            [0xE0, 0x80, 0xAF],  // overlong in three bytes
            [0xED, 0xA0, 0x80],  // a UTF-16 surrogate
            [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
            [0xE2, 0x82],  // truncated at the end
            [0x61, 0xE2, 0x82, 0x61],  // truncated in the middle
            [0xFF],  // never in UTF-8
        ] as [[UInt8]])
    func malformed(_ bytes: [UInt8]) {
        #expect(String(strictUTF8: bytes) == nil)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\u{FFFD}"))
    }

    /// Agrees with the standard library's own validation (where the platform has it) on seeded
    /// random byte strings, half of them made of valid text with one byte changed.
    @Test func agreesWithTheStandardLibrary() throws {
        guard #available(macOS 15, iOS 18, *) else { return }
        var random = SeededRandom(seed: 46)
        var accepted = 0
        for round in 0..<5_000 {
            var bytes: [UInt8]
            if round.isMultiple(of: 2) {
                bytes = (0..<Int.random(in: 0...12, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
            } else {
                let scalars = (0..<Int.random(in: 1...6, using: &random)).compactMap { _ in
                    Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &random))
                }
                bytes = Array(String(String.UnicodeScalarView(scalars)).utf8)
                let at = Int.random(in: 0..<bytes.count, using: &random)
                bytes[at] = UInt8.random(in: 0...255, using: &random)
            }
            let expected = String(validating: bytes, as: UTF8.self)
            #expect(String(strictUTF8: bytes) == expected, "\(bytes)")
            if expected != nil { accepted += 1 }
        }
        // Both branches are exercised: some inputs valid, most of the random ones not.
        #expect(accepted > 500 && accepted < 4_500)
    }
}
