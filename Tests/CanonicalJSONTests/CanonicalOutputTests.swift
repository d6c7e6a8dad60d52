import CanonicalJSON
import TandemTesting
import TestSupport
import Testing

/// The one-pass output writes into room sized in advance and writes again with more room when
/// a value does not fit: the bytes must never depend on the room it started with.
@Suite struct CanonicalOutputTests {
    @Test(arguments: [11, 12, 13] as [UInt64])
    func everyStartingRoomGivesTheSameBytes(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        for _ in 0..<200 {
            let value = RandomJSON.value(&rng)
            let expected = try CanonicalJSON.canonicalBytes(of: value)
            for room in [0, 1, 7, 64, 100_000] {
                var runs = 0
                let written = try CanonicalWriter.bytes(capacity: room) { output throws(CanonicalJSONError) in
                    runs += 1
                    try output.write(value)
                }
                #expect(written == expected, "room \(room)")
                // Room is doubled from at least 16 bytes, so runs stay logarithmic in the size.
                #expect(runs <= 2 + max(0, expected.count / 16).bitWidthNeeded)
            }
        }
    }

    @Test func aStreamedWriterKeepsItsEarlierBytes() throws {
        var rng = SeededRandom(seed: 21)
        let values = (0..<40).map { _ in RandomJSON.value(&rng) }
        var writer = CanonicalWriter(capacity: 1)
        writer.appendByte(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { writer.appendByte(UInt8(ascii: ",")) }
            try writer.write(value)
        }
        writer.appendByte(UInt8(ascii: "]"))
        #expect(writer.bytes == (try CanonicalJSON.canonicalBytes(of: .array(values))))

        writer.reset()
        writer.writeString("a\"b")
        try writer.write(.number(1.5))
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #""a\"b"1.5"#)
    }

    /// A stream hands on the same bytes as one pass, in chunks, whatever falls on the edge of its
    /// 1 KiB: escapes, runs that straddle it, and runs longer than the memory itself.
    @Test(arguments: [31, 32] as [UInt64])
    func aStreamHandsOnTheSameBytesInChunks(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        for round in 0..<60 {
            var elements = (0..<Int.random(in: 0...120, using: &rng)).map { _ in RandomJSON.value(&rng) }
            switch round % 3 {
            case 0: elements.append(.string(String(repeating: "x", count: Int.random(in: 900...3_000, using: &rng))))
            case 1:
                elements.append(.string(String(repeating: "ab\u{1}", count: Int.random(in: 300...900, using: &rng))))
            default: break
            }
            let value = JSONValue.array(elements)
            let expected = try CanonicalJSON.canonicalBytes(of: value)
            var streamed: [UInt8] = []
            var chunks = 0
            var counted = 0
            try CanonicalWriter.stream { output throws(CanonicalJSONError) in
                try output.write(value)
                counted = output.count
            } into: { chunk in
                chunks += 1
                // Only a run longer than the memory (the string of `x`) is handed on whole.
                #expect(!chunk.isEmpty && (chunk.count <= 1_024 || chunk.allSatisfy { $0 == UInt8(ascii: "x") }))
                streamed.append(contentsOf: chunk)
            }
            #expect(streamed == expected)
            #expect(counted == expected.count)
            #expect(expected.count <= 1_024 ? chunks <= 1 : chunks >= 2)
        }
    }

    @Test func aFailingStreamThrows() {
        let value = JSONValue.array([.string(String(repeating: "x", count: 3_000)), .number(.infinity)])
        var seen = 0
        #expect(throws: CanonicalJSONError.nonFiniteNumber) {
            try CanonicalWriter.stream { output throws(CanonicalJSONError) in
                try output.write(value)
            } into: {
                seen += $0.count
            }
        }
        #expect(seen < 3_010, "nothing after the failure is handed on")
    }

    @Test func stringsEscapeAlikeInBothSinks() throws {
        let strings =
            RandomJSON.alphabet + ["\u{0}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}", String(repeating: "é\"", count: 300)]
        for string in strings {
            var array: [UInt8] = []
            CanonicalWriter.appendString(string, to: &array)
            let written = try CanonicalWriter.bytes(capacity: 4) { $0.writeString(string) }
            #expect(written == array)
            #expect(written == (try CanonicalJSON.canonicalBytes(of: .string(string))))
        }
        var array: [UInt8] = []
        CanonicalWriter.appendString("\u{1}\u{1F}\n", to: &array)
        #expect(String(decoding: array, as: UTF8.self) == #""\u0001\u001f\n""#)
    }

    @Test(arguments: [0, 4, 4096])
    func aFailingWriteThrowsAtAnyRoom(room: Int) {
        let value = JSONValue.array([.string(String(repeating: "x", count: 100)), .number(.infinity)])
        #expect(throws: CanonicalJSONError.nonFiniteNumber) {
            _ = try CanonicalWriter.bytes(capacity: room) { output throws(CanonicalJSONError) in try output.write(value)
            }
        }
        var writer = CanonicalWriter(capacity: room)
        writer.appendByte(UInt8(ascii: "x"))
        #expect(throws: CanonicalJSONError.nonFiniteNumber) { try writer.write(value) }
        #expect(writer.bytes == [UInt8(ascii: "x")], "a failed write leaves the earlier bytes as they were")
    }
}

extension Int {
    fileprivate var bitWidthNeeded: Int { Int.bitWidth - leadingZeroBitCount }
}
