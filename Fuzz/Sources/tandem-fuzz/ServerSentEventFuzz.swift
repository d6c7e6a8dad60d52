import Foundation

@testable import TandemMessaging

/// `GET /kasia/stream` as the client reads it (issue 11 item 3): ``ServerSentEventParser`` fed
/// bytes as the network delivers them, then each event decoded as a ``IndexerEvent``.
///
/// The first byte picks how the rest is cut into chunks. The parser is a state machine over
/// bytes, so any cut must give the same events, the same `Last-Event-ID` and the same `retry`
/// as feeding everything at once (a CR ending one chunk and an LF starting the next are one line
/// end). No event carries a CR or LF (the stream's only line ends) in its type or id, or a NUL in its id; decoding a row
/// either yields a row or a typed error.
enum ServerSentEventFuzz {
    static func run(_ bytes: [UInt8]) {
        guard let cut = bytes.first else { return }
        let stream = bytes.dropFirst()

        var whole = ServerSentEventParser(lastEventID: "start")
        let events = whole.feed(stream)

        var chunked = ServerSentEventParser(lastEventID: "start")
        var again: [ServerSentEvent] = []
        var start = stream.startIndex
        var step = 0
        while start < stream.endIndex {
            // Chunk lengths 1…16, varying with the cut byte and the position.
            let length = Int((cut &+ UInt8(truncatingIfNeeded: step &* 7)) % 16) + 1
            let end = min(start + length, stream.endIndex)
            again += chunked.feed(stream[start..<end])
            start = end
            step += 1
        }
        invariant(again == events, "cutting the stream into chunks changed its events")
        invariant(chunked.lastEventID == whole.lastEventID, "cutting the stream changed Last-Event-ID")
        invariant(chunked.retryMilliseconds == whole.retryMilliseconds, "cutting the stream changed retry")

        for event in events {
            invariant(!event.type.isEmpty, "an event without a type")
            invariant(!event.type.unicodeScalars.contains(where: lineEnd), "a CR or LF in an event type")
            invariant(!event.lastEventID.unicodeScalars.contains(where: lineEnd), "a CR or LF in an event id")
            invariant(!event.lastEventID.contains("\u{0}"), "a NUL in an event id")
            _ = try? IndexerEvent(event)
        }
    }

    static func lineEnd(_ scalar: Unicode.Scalar) -> Bool { scalar == "\r" || scalar == "\n" }
}
