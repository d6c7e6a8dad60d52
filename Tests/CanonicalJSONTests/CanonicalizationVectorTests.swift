import CanonicalJSON
import Foundation
import TestSupport
import Testing

struct CanonicalizationVectors: Decodable {
    struct Case: Decodable, CustomTestStringConvertible, Sendable {
        let name: String
        let input: String
        let canonical: String
        let canonicalUtf8Hex: String
        let sha256: String
        var testDescription: String { name }
    }

    struct ErrorCase: Decodable, CustomTestStringConvertible, Sendable {
        let name: String
        let input: String
        var testDescription: String { name }
    }

    let canonicalization: [Case]
    let canonicalizationErrors: [ErrorCase]

    static func load() throws -> CanonicalizationVectors {
        try Vectors.decode(CanonicalizationVectors.self, from: "redo-vectors")
    }
}

@Suite struct CanonicalizationVectorTests {
    static let vectors = (try? CanonicalizationVectors.load())

    @Test func vectorFileHasBothSections() throws {
        let vectors = try #require(Self.vectors)
        #expect(vectors.canonicalization.count == 23)
        #expect(vectors.canonicalizationErrors.count == 6)
    }

    @Test(arguments: vectors?.canonicalization ?? [])
    func canonicalizesVectorInputToExactBytes(_ vector: CanonicalizationVectors.Case) throws {
        let output = try CanonicalJSON.canonicalize(Array(vector.input.utf8))
        #expect(Data(output).testHex == vector.canonicalUtf8Hex)
        #expect(String(decoding: output, as: UTF8.self) == vector.canonical)
    }

    @Test(arguments: vectors?.canonicalization ?? [])
    func canonicalFormIsAFixedPoint(_ vector: CanonicalizationVectors.Case) throws {
        let once = try CanonicalJSON.canonicalize(Array(vector.input.utf8))
        let twice = try CanonicalJSON.canonicalize(once)
        #expect(once == twice)
    }

    @Test(arguments: vectors?.canonicalizationErrors ?? [])
    func rejectsNonIJSONVectorInput(_ vector: CanonicalizationVectors.ErrorCase) {
        #expect(throws: CanonicalJSONError.self) {
            try CanonicalJSON.canonicalize(Array(vector.input.utf8))
        }
    }
}
