import CanonicalJSON
import Foundation
import TandemTesting
import TestSupport
import Testing

enum RandomJSON {
    static let alphabet: [String] = [
        "a", "B", "é", "e\u{301}", "😀", "\u{E000}", "\u{FFFF}", "\"", "\\", "/", "\n", "\u{1}", "\u{7F}", "\u{2028}",
        "日", "z",
    ]

    static func string(_ rng: inout SeededRandom) -> String {
        (0..<Int.random(in: 0...6, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "" }.joined()
    }

    static func number(_ rng: inout SeededRandom) -> Double {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return Double(Int.random(in: -1_000_000...1_000_000, using: &rng))
        case 1: return Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF) * (Bool.random(using: &rng) ? 1 : -1)
        case 2: return Double.random(in: -1e-5...1e-5, using: &rng)
        case 3: return Double.random(in: 1e19...1e23, using: &rng)
        default: return Double.random(in: -1000...1000, using: &rng)
        }
    }

    static func value(_ rng: inout SeededRandom, depth: Int = 0) -> JSONValue {
        let choice = Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &rng)
        switch choice {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .number(number(&rng))
        case 3: return .string(string(&rng))
        case 4: return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in value(&rng, depth: depth + 1) })
        default:
            var members: [JSONObject.Member] = []
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                let key = string(&rng)
                if members.contains(where: { $0.key.utf8.elementsEqual(key.utf8) }) { continue }
                members.append(JSONObject.Member(key: key, value: value(&rng, depth: depth + 1)))
            }
            return (try? JSONObject(members: members)).map(JSONValue.object) ?? .null
        }
    }
}

@Suite struct RoundTripPropertyTests {
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func canonOfParsedCanonIsStable(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        for _ in 0..<250 {
            let value = RandomJSON.value(&rng)
            let canonical = try CanonicalJSON.canonicalBytes(of: value)
            let reparsed = try CanonicalJSON.parse(canonical)
            #expect(try CanonicalJSON.canonicalBytes(of: reparsed) == canonical)
            #expect(reparsed == value)
        }
    }

    @Test(arguments: [7, 8] as [UInt64])
    func numbersRoundTripThroughTheirCanonicalText(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        for _ in 0..<2000 {
            let number = RandomJSON.number(&rng)
            let text = try CanonicalJSON.canonicalString(of: .number(number))
            #expect(Double(text) == number || (number == 0 && Double(text) == 0))
            #expect(!text.contains("e") || !(1e-6..<1e21).contains(number.magnitude))
        }
    }

    @Test func objectKeysSortByUTF16CodeUnits() throws {
        var rng = SeededRandom(seed: 99)
        for _ in 0..<200 {
            let keys = Set((0..<5).map { _ in RandomJSON.string(&rng) }.map { Array($0.unicodeScalars) })
                .map { String(String.UnicodeScalarView($0)) }
            let object = try JSONObject(keys.map { ($0, JSONValue.null) })
            let order = object.keys.map { Array($0.utf16) }
            #expect(order == order.sorted { $0.lexicographicallyPrecedes($1) })
        }
    }
}
