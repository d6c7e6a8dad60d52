import TandemBasics
import TandemTesting
import Testing

@Suite struct HexTests {
    @Test func roundTripsAllByteValues() throws {
        let bytes = (0...255).map(UInt8.init)
        #expect(try Hex.decode(Hex.encode(bytes)) == bytes)
        #expect(try Hex.decode("ABcd") == [0xab, 0xcd])
    }

    @Test func rejectsOddLengthAndForeignCharacters() {
        #expect(throws: Hex.DecodingError.oddLength(3)) { try Hex.decode("abc") }
        #expect(throws: Hex.DecodingError.invalidCharacter("g", offset: 1)) { try Hex.decode("ag") }
        #expect(throws: Hex.DecodingError.self) { try Hex.decode("é1") }
        #expect(!Hex.isHex("0g") && Hex.isHex("00ff") && !Hex.isHex("0"))
    }

    @Test func roundTripsSeededRandomBytesThroughEveryCodec() throws {
        var random = SeededRandom(seed: 0x4845_58)
        for _ in 0..<500 {
            let count = Int.random(in: 0...64, using: &random)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            let text = Hex.encode(bytes)
            #expect(text.utf8.count == 2 * count)
            #expect(try Hex.decode(text) == bytes)
            #expect(try Hex.decode(utf8: Array(text.utf8)) == bytes)
            #expect(try Hex.decode(text.uppercased()) == bytes)
            #expect(Hex.decodeLowercase(text, byteCount: count) == bytes)
            #expect(Hex.isHex(text) && Hex.isLowercaseHex(text))
            var appended: [UInt8] = []
            for byte in bytes { Hex.append(byte, to: &appended) }
            #expect(String(decoding: appended, as: UTF8.self) == text)
        }
    }

    @Test func reportsTheOffsetOfTheFirstBadCharacterAsTheUserSeesIt() {
        #expect(throws: Hex.DecodingError.invalidCharacter("x", offset: 2)) { try Hex.decode("00x0") }
        #expect(throws: Hex.DecodingError.invalidCharacter(" ", offset: 3)) { try Hex.decode("000 ") }
        // "é" is two UTF-8 bytes: it is reported whole, at its character offset.
        #expect(throws: Hex.DecodingError.invalidCharacter("é", offset: 0)) { try Hex.decode("é00") }
        #expect(throws: Hex.DecodingError.invalidCharacter("é", offset: 1)) { try Hex.decode("0é0") }
        #expect(throws: Hex.DecodingError.oddLength(1)) { try Hex.decode(utf8: [0x30]) }
    }

    @Test func errorsDescribeWhatWasWrong() {
        #expect(Hex.DecodingError.oddLength(3).description == "hex text has an odd length (3 characters)")
        #expect(
            Hex.DecodingError.invalidCharacter("g", offset: 1).description == "invalid hex character 'g' at offset 1")
    }

    /// The protocols that allow lowercase hex only (Redo spec §2) reject uppercase and any other length.
    @Test func lowercaseDecodingRejectsUppercaseAndWrongLengths() {
        #expect(Hex.decodeLowercase("00ff", byteCount: 2) == [0x00, 0xff])
        #expect(Hex.decodeLowercase("00FF", byteCount: 2) == nil)
        #expect(Hex.decodeLowercase("00ff", byteCount: 1) == nil)
        #expect(Hex.decodeLowercase("00ff0", byteCount: 2) == nil)
        #expect(Hex.decodeLowercase("", byteCount: 0) == [])
        #expect(Hex.decodeLowercase("0g", byteCount: 1) == nil)
        #expect(!Hex.isLowercaseHex("0A") && !Hex.isLowercaseHex("0") && Hex.isLowercaseHex(""))
    }

    @Test func nibblesAndDigitsCoverExactlyTheHexAlphabet() {
        for byte in UInt8.min...UInt8.max {
            let scalar = Character(Unicode.Scalar(byte))
            let isLower = ("0"..."9").contains(scalar) || ("a"..."f").contains(scalar)
            let isUpper = ("A"..."F").contains(scalar)
            #expect((Hex.lowercaseNibble(byte) != nil) == isLower)
            #expect(Hex.isDigit(byte) == (isLower || isUpper))
        }
        #expect(Hex.lowercaseNibble(UInt8(ascii: "f")) == 15)
        #expect(Hex.lowercaseNibble(UInt8(ascii: "7")) == 7)
    }
}
