import TandemMessaging
import TandemTesting
import Testing

@Suite struct ServerSentEventParserTests {
    @Test func dispatchesOnBlankLineWithTypeIDAndJoinedData() {
        var parser = ServerSentEventParser()
        let events = parser.feed(Array("event: handshake\nid: 17\ndata: {\"a\":1}\ndata: second\n\n".utf8))
        #expect(events == [ServerSentEvent(type: "handshake", data: "{\"a\":1}\nsecond", lastEventID: "17")])
        #expect(parser.lastEventID == "17")
    }

    @Test func commentsAreHeartbeatsAndDispatchNothing() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array(": heartbeat\n\n: heartbeat\n\n".utf8)).isEmpty)
    }

    @Test func eventsSplitAcrossChunksAtAnyByteArriveWhole() {
        let text = Array("event: payment\r\nid: 5\r\ndata: x\r\n\r\ndata: y\r\r".utf8)
        for split in 0...text.count {
            var parser = ServerSentEventParser()
            let events = parser.feed(text[..<split]) + parser.feed(text[split...])
            #expect(events.map(\.data) == ["x", "y"], "split at \(split)")
            #expect(events.map(\.type) == ["payment", "message"])
            #expect(events.map(\.lastEventID) == ["5", "5"])
        }
    }

    @Test func followsTheFieldRulesOfTheStandard() {
        // Given no space after the colon, a field with no colon, an unknown field, an id with NUL and a retry
        var parser = ServerSentEventParser(lastEventID: "3")
        let events = parser.feed(Array("data:a\ndata\nfoo: bar\nid: x\u{0}y\nretry: 2500\n\n".utf8))

        // Then data keeps an empty line, the NUL id is ignored and retry is remembered
        #expect(events == [ServerSentEvent(type: "message", data: "a\n", lastEventID: "3")])
        #expect(parser.retryMilliseconds == 2500)
    }

    @Test func anEventWithoutDataIsNotDispatchedButItsIDStays() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("event: handshake\nid: 9\n\n".utf8)).isEmpty)
        #expect(parser.lastEventID == "9")
        #expect(
            parser.feed(Array("data: z\n\n".utf8)) == [ServerSentEvent(type: "message", data: "z", lastEventID: "9")])
    }

    /// The parser reads bytes and decodes only field values (issue 29). Against a reading of
    /// §9.2.6 written on decoded text, line by line, any seeded stream of field names, colons,
    /// spaces, digits, NUL, the three line ends, multi-byte and invalid UTF-8, fed in random
    /// chunks, gives the same events, id and retry.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func readsAnyStreamAsTheStandardsTextReadingDoes(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let pieces: [[UInt8]] = [
            Array("data".utf8), Array("event".utf8), Array("id".utf8), Array("retry".utf8), Array("dat".utf8),
            [UInt8(ascii: ":")], [UInt8(ascii: " ")], Array("12".utf8), [0], [0x0A], [0x0D], [0x0D, 0x0A],
            Array("é".utf8), [0xC3], [0xFF], [0xEF, 0xBB, 0xBF], Array("x".utf8), Array("99999999999999999999".utf8),
            Array("\u{301}".utf8),
        ]
        for round in 0..<300 {
            var stream: [UInt8] = []
            for _ in 0..<Int.random(in: 0..<40, using: &random) {
                stream += pieces[Int.random(in: 0..<pieces.count, using: &random)]
            }
            var parser = ServerSentEventParser(lastEventID: "start")
            var events: [ServerSentEvent] = []
            var offset = 0
            while offset < stream.count {
                let end = min(stream.count, offset + Int.random(in: 1...7, using: &random))
                events += parser.feed(stream[offset..<end])
                offset = end
            }
            var reference = TextReading(lastEventID: "start")
            let expected = reference.read(stream)
            #expect(events == expected, "seed \(seed) round \(round)")
            #expect(parser.lastEventID == reference.lastEventID, "seed \(seed) round \(round)")
            #expect(parser.retryMilliseconds == reference.retry, "seed \(seed) round \(round)")
        }
    }

    /// §9.2.6 on text: the stream split into complete lines, each line decoded, then its field
    /// and value found with string operations.
    struct TextReading {
        var lastEventID: String
        var retry: UInt64?
        var type = ""
        var data = ""
        var hasData = false

        mutating func read(_ stream: [UInt8]) -> [ServerSentEvent] {
            var events: [ServerSentEvent] = []
            var lines: [[UInt8]] = []
            var current: [UInt8] = []
            var index = 0
            while index < stream.count {
                let byte = stream[index]
                if byte == 0x0A || byte == 0x0D {
                    lines.append(current)
                    current = []
                    if byte == 0x0D, index + 1 < stream.count, stream[index + 1] == 0x0A { index += 1 }
                } else {
                    current.append(byte)
                }
                index += 1
            }
            for (number, bytes) in lines.enumerated() {
                // The standard reads code points, so the reading does too (not characters: a
                // colon followed by a combining mark is still a colon).
                var line = String(decoding: bytes, as: UTF8.self).unicodeScalars
                if number == 0, line.first == "\u{FEFF}" { line.removeFirst() }
                if line.isEmpty {
                    if hasData {
                        events.append(
                            ServerSentEvent(type: type.isEmpty ? "message" : type, data: data, lastEventID: lastEventID)
                        )
                    }
                    (type, data, hasData) = ("", "", false)
                    continue
                }
                if line.first == ":" { continue }
                var name = String(line)
                var value = ""
                if let colon = line.firstIndex(of: ":") {
                    name = String(line[..<colon])
                    var rest = line[line.index(after: colon)...]
                    if rest.first == " " { rest.removeFirst() }
                    value = String(rest)
                }
                switch name {
                case "event": type = value
                case "data":
                    data += (hasData ? "\n" : "") + value
                    hasData = true
                case "id": if !value.unicodeScalars.contains("\u{0}") { lastEventID = value }
                case "retry":
                    if !value.isEmpty, value.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }),
                        let ms = UInt64(value)
                    {
                        retry = ms
                    }
                default: break
                }
            }
            return events
        }
    }

    @Test func aLeadingByteOrderMarkIsSkipped() {
        var parser = ServerSentEventParser()
        #expect(parser.feed([0xEF, 0xBB, 0xBF] + Array("data: b\n\n".utf8)).map(\.data) == ["b"])
    }
}
