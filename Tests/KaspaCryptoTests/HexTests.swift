import TandemBasics
import KaspaCrypto
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
}
