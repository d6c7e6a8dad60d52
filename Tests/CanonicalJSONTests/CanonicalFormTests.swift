import CanonicalJSON
import Foundation
import TandemTesting
import TestSupport
import Testing

/// Writes a value as valid JSON in one of many spellings: whitespace here and there, escapes JCS
/// would not use, numbers spelled otherwise, members out of order — or, by chance, exactly the
/// canonical form.
struct RandomSpelling {
    var rng: SeededRandom

    mutating func chance(_ oneIn: Int) -> Bool { Int.random(in: 0..<oneIn, using: &rng) == 0 }

    mutating func space() -> String {
        chance(12) ? [" ", "\n", "\t", "\r\n  "].randomElement(using: &rng) ?? " " : ""
    }

    mutating func text(_ value: JSONValue) throws -> String {
        space() + (try bare(value)) + space()
    }

    private mutating func bare(_ value: JSONValue) throws -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return try self.number(number)
        case .string(let string): return self.string(string)
        case .array(let elements):
            return "[" + (try elements.map { try text($0) }).joined(separator: ",") + (elements.isEmpty ? space() : "")
                + "]"
        case .object(let object):
            var members = object.members
            if chance(6) { members.shuffle(using: &rng) }
            let written = try members.map { space() + string($0.key) + space() + ":" + (try text($0.value)) }
            return "{" + written.joined(separator: ",") + (members.isEmpty ? space() : "") + "}"
        }
    }

    private mutating func number(_ number: Double) throws -> String {
        let canonical = try CanonicalJSON.canonicalString(of: .number(number))
        switch Int.random(in: 0..<8, using: &rng) {
        case 0 where number == number.rounded() && number.magnitude < 1e15: return canonical + ".0"
        case 1 where number == 0: return "-0"
        case 2: return canonical.replacingOccurrences(of: "e", with: "E")
        case 3 where !canonical.contains("e"): return canonical + "e0"
        default: return canonical
        }
    }

    private mutating func string(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += chance(3) ? "\\/" : "/"
            case "\n": out += chance(3) ? "\\u000a" : "\\n"
            default:
                if scalar.value < 0x20 {
                    let digits = String(scalar.value, radix: 16).leftPadded(to: 2)
                    out += "\\u00" + (chance(3) ? digits.uppercased() : digits)
                } else if chance(8) {
                    out += String(scalar).utf16.map { "\\u" + String($0, radix: 16).leftPadded(to: 4) }.joined()
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

@Suite struct CanonicalFormTests {
    private func form(_ text: String, omitting: [String] = []) throws -> ParsedText {
        try JSONParser().parseNotingForm(Array(text.utf8), omitting: omitting)
    }

    /// The parser's verdict is exact both ways: canonical exactly when the writer would write the
    /// same bytes, over thousands of spellings of random values.
    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func theVerdictIsExactlyWhetherTheWriterAgrees(seed: UInt64) throws {
        var values = SeededRandom(seed: seed)
        var spelling = RandomSpelling(rng: SeededRandom(seed: seed &+ 100))
        var canonicalCount = 0
        for _ in 0..<400 {
            let value = RandomJSON.value(&values)
            let text = Array(try spelling.text(value).utf8)
            let parsed = try JSONParser().parseNotingForm(text)
            #expect(parsed.value == value)
            let agrees = try CanonicalJSON.canonicalBytes(of: parsed.value) == text
            #expect(parsed.isCanonical == agrees, "\(String(decoding: text, as: UTF8.self))")
            if agrees { canonicalCount += 1 }
        }
        // Both verdicts are exercised.
        #expect(canonicalCount > 40 && canonicalCount < 360)
    }

    @Test(arguments: [
        " {}", "{} ", "{ }", "[1, 2]", #"{"b":1,"a":2}"#, #"{"a":{"d":1,"c":2}}"#, #"["\/"]"#, #"["\u0041"]"#,
        #"["\u000a"]"#, #"["\u001F"]"#, #"["\ud83d\ude00"]"#, "[-0]", "[1.0]", "[1e2]", "[1E+2]", "[0.10]",
        "[12345678901234567]",
    ])
    func spellingsJCSWouldNotWriteAreNotCanonical(_ text: String) throws {
        #expect(try form(text).isCanonical == false)
    }

    @Test(arguments: [
        "{}", "[]", "[1,-2,0]", #"["\n\t\b\f\r","\u001f\u0000","\"\\","/é😀"]"#, "[1.5,1e+21,1e-7,0.000001]",
        #"{"":0,"a":[true,false,null],"b":{"c":"d"}}"#, "[123456789012345]", "[9007199254740991]",
    ])
    func canonicalSpellingsAreRecognised(_ text: String) throws {
        let parsed = try form(text)
        #expect(parsed.isCanonical)
        #expect(try CanonicalJSON.canonicalBytes(of: parsed.value) == Array(text.utf8))
    }

    /// The remainder of a canonical object is the writer's text of the object without the
    /// omitted members, and its ranges are each kept value's canonical text.
    @Test(arguments: [21, 22] as [UInt64])
    func theRemainderIsTheCanonicalTextOfTheKeptMembers(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        var checked = 0
        for _ in 0..<1_000 {
            guard case .object(let object) = RandomJSON.value(&rng), object.count > 0 else { continue }
            let omitted = object.keys.filter { _ in Bool.random(using: &rng) }
            let text = try CanonicalJSON.canonicalBytes(of: .object(object))
            let remainder = try #require(try JSONParser().parseNotingForm(text, omitting: omitted).remainder)
            let kept = object.removing(Set(omitted))
            #expect(remainder.bytes == (try CanonicalJSON.canonicalBytes(of: .object(kept))))
            #expect(remainder.valueRanges.count == kept.count)
            for (member, range) in zip(kept.members, remainder.valueRanges) {
                #expect(Array(remainder.bytes[range]) == (try CanonicalJSON.canonicalBytes(of: member.value)))
            }
            checked += 1
        }
        #expect(checked > 100)
    }

    /// Each element of the named member's array is noted in its own form (issue 49 item 6): its
    /// text exactly when that text is what the writer writes for it, whatever the rest of the
    /// document looks like.
    @Test(arguments: [31, 32] as [UInt64])
    func elementsOfTheNamedMemberAreNotedInTheirOwnForm(seed: UInt64) throws {
        var values = SeededRandom(seed: seed)
        var spelling = RandomSpelling(rng: SeededRandom(seed: seed &+ 100))
        var canonical = 0
        for _ in 0..<300 {
            let elements = (0..<Int.random(in: 0...6, using: &values)).map { _ in RandomJSON.value(&values) }
            let texts = try elements.map { try spelling.text($0) }
            let nodes = #""nodes":["# + texts.joined(separator: ",") + "]"
            let other = #""other":"# + (try spelling.text(RandomJSON.value(&values)))
            let document = Array(
                ("{" + (Bool.random(using: &values) ? nodes + "," + other : other + "," + nodes) + "}").utf8)
            let (value, noted) = try JSONParser().parseNotingElements(document, ofMember: "nodes")
            #expect(value == (try JSONParser().parse(document)))
            #expect(noted.count == elements.count)
            for (text, element) in zip(texts, noted) {
                // The element's own text, without the whitespace around it.
                let own = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
                let written = try CanonicalJSON.canonicalBytes(of: try JSONParser().parse(own))
                #expect(element.canonicalText == (written == own ? own : nil), "\(text)")
                if written == own { canonical += 1 }
            }
        }
        #expect(canonical > 50)
    }

    @Test func onlyTheTopLevelMembersArrayIsNoted() throws {
        func noted(_ text: String) throws -> [[UInt8]?] {
            try JSONParser().parseNotingElements(Array(text.utf8), ofMember: "nodes").elements.map(\.canonicalText)
        }
        #expect(try noted(#"{"nodes":[{"a":1}, {"b": 2},[3]]}"#) == [Array(#"{"a":1}"#.utf8), nil, Array("[3]".utf8)])
        #expect(try noted(#"{"x":{"nodes":[1]}}"#).isEmpty)
        #expect(try noted(#"{"nodes":{"a":[1]}}"#).isEmpty)
        #expect(try noted(#"[{"nodes":[1]}]"#).isEmpty)
        #expect(try noted(#"{"nodes":[[1,2],3]}"#) == [Array("[1,2]".utf8), Array("3".utf8)])
    }

    @Test func onlyACanonicalObjectHasARemainder() throws {
        #expect(try form(#"{"a":1, "b":2}"#, omitting: ["a"]).remainder == nil)
        #expect(try form("[1]", omitting: ["a"]).remainder == nil)
        #expect(try form(#"{"a":1,"b":2}"#, omitting: ["a"]).remainder?.bytes == Array(#"{"b":2}"#.utf8))
        #expect(try form(#"{"a":1}"#, omitting: ["a"]).remainder?.bytes == Array("{}".utf8))
    }
}
