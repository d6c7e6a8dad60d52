import CanonicalJSON
import RedoProtocol
import TandemTesting
import TestSupport
import Testing

@Suite struct NodeIntegrityPropertyTests {
    /// Property: changing any single byte of a node's text either breaks the text, leaves the same
    /// JSON value (e.g. hex case inside a `\u` escape), or makes the node fail validation.
    @Test(arguments: [0, 3, 12])
    func anySingleByteChangeIsDetected(vectorIndex: Int) throws {
        let entry = try #require(RedoVectorFile.list("validNodes").dropFirst(vectorIndex).first)
        let original = try #require(entry["node"])
        let text = try CanonicalJSON.canonicalBytes(of: original)
        let validator = NodeValidator()
        let originalID = try validator.validate(original).id
        let replacements: [UInt8] = [0x30, 0x61, 0x22, 0x7B]
        var checked = 0
        for position in text.indices {
            for replacement in replacements where replacement != text[position] {
                var mutated = text
                mutated[position] = replacement
                guard let value = try? CanonicalJSON.parse(mutated), value != original else { continue }
                checked += 1
                if let node = try? validator.validate(value) {
                    Issue.record("mutation at \(position) still validates with id \(node.id) (was \(originalID))")
                }
                // From the text, the body is cut from it when it is canonical: the same verdict.
                if let node = try? validator.validate(bytes: mutated) {
                    Issue.record("mutated text at \(position) still validates with id \(node.id) (was \(originalID))")
                }
            }
        }
        #expect(checked > text.count)
    }

    /// Every valid vector validates to the same id from its canonical text (body cut from the
    /// text), from a spelling with whitespace (body written again), from its parsed value and
    /// through the store's read-back path.
    @Test func canonicalAndOtherSpellingsOfANodeValidateAlike() throws {
        let validator = NodeValidator()
        var checked = 0
        for entry in RedoVectorFile.list("validNodes") {
            let node = try #require(entry["node"])
            let expected = try validator.validate(node).id
            let text = try CanonicalJSON.canonicalBytes(of: node)
            #expect(try JSONParser().parseNotingForm(text).isCanonical)
            var spaced = text
            spaced.insert(UInt8(ascii: " "), at: 1)
            #expect(try validator.validate(bytes: text).id == expected)
            #expect(try validator.validate(bytes: spaced).id == expected)
            #expect(try validator.revalidate(verifiedBytes: text).id == expected)
            checked += 1
        }
        #expect(checked > 10)
    }

    /// The content id streams the body into the hash from 1 KiB of memory: it must equal the hash
    /// of the body written whole, for bodies shorter and longer than that memory.
    @Test func theStreamedContentIDMatchesTheWholeBodyAtEverySize() throws {
        var checked = 0
        for entry in RedoVectorFile.list("validNodes") {
            let node = try #require(entry["node"]?.objectValue)
            for length in [0, 300, 700, 1_000, 1_024, 2_000, 5_000] {
                let padded = try JSONObject(
                    members: node.members + [
                        JSONObject.Member(key: "zz", value: .string(String(repeating: "é", count: length)))
                    ])
                let whole = try CanonicalJSON.canonicalBytes(of: .object(padded.removing(["id", "signature"])))
                #expect(try ContentAddress.id(of: padded) == ContentAddress.id(ofCanonicalBody: whole))
                #expect(try ContentAddress.canonicalBody(of: padded).bytes == whole)
                checked += 1
            }
        }
        #expect(checked > 70)
    }

    @Test func dateArithmeticRoundTripsThroughText() throws {
        var generator = SeededRandom(seed: 5)
        for _ in 0..<500 {
            let millis = Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &generator)
            let wall = try #require(WallTime(millisecondsSinceEpoch: millis))
            #expect(WallTime(wall.description) == wall)
        }
        #expect(WallTime("2024-02-29T00:00:00.000Z") != nil)
        #expect(WallTime("2025-02-29T00:00:00.000Z") == nil)
    }
}
