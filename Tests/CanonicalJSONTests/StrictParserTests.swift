import CanonicalJSON
import Testing

@Suite struct StrictParserTests {
    private func parse(_ text: String) throws(CanonicalJSONError) -> JSONValue {
        try CanonicalJSON.parse(Array(text.utf8))
    }

    @Test func reportsDuplicateKeyByName() {
        #expect(throws: CanonicalJSONError.duplicateKey("a")) { try parse(#"{"a":1,"b":2,"a":3}"#) }
    }

    @Test func keepsNFCAndNFDKeysApart() throws {
        let value = try parse("{\"\u{e9}\":1,\"e\u{301}\":2}")
        #expect(value.objectValue?.count == 2)
    }

    @Test func rejectsLoneSurrogates() {
        #expect(throws: CanonicalJSONError.loneSurrogate(offset: 2)) { try parse(#"["\ud800x"]"#) }
        #expect(throws: CanonicalJSONError.loneSurrogate(offset: 2)) { try parse(#"["\udc00"]"#) }
        #expect(throws: CanonicalJSONError.loneSurrogate(offset: 2)) { try parse(#"["\ud800\u0041"]"#) }
    }

    @Test func rejectsInvalidUTF8() {
        let overlong: [UInt8] = [0x22, 0xC0, 0xAF, 0x22]
        let encodedSurrogate: [UInt8] = [0x22, 0xED, 0xA0, 0x80, 0x22]
        let truncated: [UInt8] = [0x22, 0xE2, 0x82]
        #expect(throws: CanonicalJSONError.invalidUTF8(offset: 1)) { try CanonicalJSON.parse(overlong) }
        #expect(throws: CanonicalJSONError.invalidUTF8(offset: 1)) { try CanonicalJSON.parse(encodedSurrogate) }
        #expect(throws: CanonicalJSONError.invalidUTF8(offset: 1)) { try CanonicalJSON.parse(truncated) }
    }

    @Test func rejectsNumbersOutsideTheDoubleRange() {
        #expect(throws: CanonicalJSONError.numberOutOfRange(literal: "-1e309")) { try parse("[-1e309]") }
    }

    @Test(arguments: ["01", "1.", ".5", "-", "1e", "+1", "0x10", "1.e3", "--1"])
    func rejectsMalformedNumbers(_ literal: String) {
        #expect(throws: CanonicalJSONError.self) { try parse("[\(literal)]") }
    }

    @Test(arguments: ["", "[", "{\"a\"}", "[1,]", "{\"a\":1,}", "[1] x", "'a'", "[\"\u{1}\"]", #"["\x"]"#, "nul"])
    func rejectsMalformedText(_ text: String) {
        #expect(throws: CanonicalJSONError.self) { try parse(text) }
    }

    @Test func enforcesDepthLimit() throws {
        let limits = JSONParser.Limits(maxDepth: 4)
        #expect(throws: CanonicalJSONError.nestingTooDeep(limit: 4)) {
            try CanonicalJSON.parse(Array("[[[[[1]]]]]".utf8), limits: limits)
        }
        let fine = try CanonicalJSON.parse(Array("[[[[1]]]]".utf8), limits: limits)
        #expect(fine.arrayValue?.count == 1)
    }

    @Test func enforcesSizeLimit() {
        let limits = JSONParser.Limits(maxBytes: 8)
        #expect(throws: CanonicalJSONError.inputTooLarge(size: 9, limit: 8)) {
            try CanonicalJSON.parse(Array("[1,2,3,4]".utf8), limits: limits)
        }
    }

    @Test func refusesToSerializeNonFiniteNumbers() {
        #expect(throws: CanonicalJSONError.nonFiniteNumber) { try CanonicalJSON.canonicalBytes(of: .number(.nan)) }
        #expect(throws: CanonicalJSONError.nonFiniteNumber) {
            try CanonicalJSON.canonicalBytes(of: .array([.number(-.infinity)]))
        }
    }

    @Test func programmaticObjectsRejectDuplicateNames() {
        #expect(throws: CanonicalJSONError.duplicateKey("k")) { try JSONObject([("k", .null), ("k", .bool(true))]) }
    }

    /// Bodies with 64-bit integers (the relay's `nonce`) read them exactly from the one parse;
    /// only plain non-negative top-level literals that fit `UInt64` are kept.
    @Test func keepsExactTopLevelIntegersBeyondDoubles() throws {
        let text =
            #"{"n":18446744073709551615,"m":9007199254740993,"z":0,"neg":-1,"f":1.5,"e":1e3,"#
            + #""big":18446744073709551616,"s":"7","inner":{"x":5},"list":[6]}"#
        let (value, integers) = try JSONParser().parseKeepingIntegers(Array(text.utf8))
        #expect(integers == ["n": .max, "m": 9_007_199_254_740_993, "z": 0])
        #expect(value == (try parse(text)))
        #expect(throws: CanonicalJSONError.duplicateKey("n")) {
            try JSONParser().parseKeepingIntegers(Array(#"{"n":1,"n":2}"#.utf8))
        }
        #expect(try JSONParser().parseKeepingIntegers(Array("[1]".utf8)).integers.isEmpty)
    }
}
