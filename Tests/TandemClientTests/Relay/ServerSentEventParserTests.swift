import TandemClient
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

    @Test func aLeadingByteOrderMarkIsSkipped() {
        var parser = ServerSentEventParser()
        #expect(parser.feed([0xEF, 0xBB, 0xBF] + Array("data: b\n\n".utf8)).map(\.data) == ["b"])
    }
}
