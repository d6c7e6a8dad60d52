import Foundation
import TandemAPI
import TandemAccounts
import TandemBasics
import TandemMessaging
import TandemTesting
import Testing

/// An in-memory event-stream server: each `open` plays the next scripted connection (status and
/// body chunks), then either closes it or, for the last script, keeps it open until cancelled.
final class ScriptedEventStreamTransport: EventStreamTransport, Sendable {
    typealias Script = (status: Int, chunks: [String], close: Bool)
    private let state: Locked<(scripts: [Script], opened: [TransportRequest])>

    init(_ scripts: [Script]) { state = Locked((scripts, [])) }

    var requests: [TransportRequest] { state.withLock { $0.opened } }

    func open(_ request: TransportRequest) -> AsyncThrowingStream<EventStreamChunk, any Error> {
        let script = state.withLock { state -> Script? in
            state.opened.append(request)
            return state.scripts.isEmpty ? nil : state.scripts.removeFirst()
        }
        return AsyncThrowingStream { continuation in
            guard let script else { return }
            continuation.yield(.head(status: script.status, headers: [:]))
            for chunk in script.chunks { continuation.yield(.body(Data(chunk.utf8))) }
            if script.close { continuation.finish(throwing: URLError(.networkConnectionLost)) }
        }
    }
}

@Suite struct RelayEventStreamTests {
    static func handshakeEvent(id: UInt64, tx: String) -> String {
        "event: handshake\nid: \(id)\ndata: {\"tx_id\":\"\(tx)\",\"sender\":\"s\",\"receiver\":\"r\",\"block_time\":\(id),\"message_payload\":\"00\"}\n\n"
    }

    @Test func reconnectsAfterABackoffWithTheLastEventID() async throws {
        // Given a connection that delivers one event (split over two chunks) and drops
        let event = Self.handshakeEvent(id: 5, tx: "a")
        let cut = event.index(event.startIndex, offsetBy: 20)
        let transport = ScriptedEventStreamTransport([
            (200, [String(event[..<cut]), String(event[cut...]), ": heartbeat\n\n"], true),
            (200, [Self.handshakeEvent(id: 9, tx: "b")], false),
        ])
        let clock = ManualClock()
        let stream = RelayEventStream(
            server: try #require(URL(string: "http://127.0.0.1:9")), transport: transport, clock: clock)
        var iterator = stream.events(aliasHexes: ["6162"], addresses: ["kaspa:q"], lastEventID: "2").makeAsyncIterator()

        // When the first event is read and the stream waits out its backoff
        #expect(try await iterator.next()?.txID == "a")
        #expect(await eventually { clock.sleeperCount > 0 })
        clock.advance(by: .seconds(1))

        // Then the second connection resumes after event 5 and delivers the next row
        #expect(try await iterator.next()?.txID == "b")
        let requests = transport.requests
        #expect(requests.count == 2)
        #expect(requests.map { $0.headers.first { $0.name == "Last-Event-ID" }?.value } == ["2", "5"])
        #expect(requests[0].url.query == "alias=6162&address=kaspa:q")
    }

    @Test func aRefusedStreamEndsWithTheError() async throws {
        let transport = ScriptedEventStreamTransport([(400, [], true)])
        let stream = RelayEventStream(
            server: try #require(URL(string: "http://127.0.0.1:9")), transport: transport, clock: ManualClock())
        var iterator = stream.events(aliasHexes: [], addresses: ["kaspa:q"]).makeAsyncIterator()
        await #expect(throws: RelayClientError.self) { _ = try await iterator.next() }
    }
}
