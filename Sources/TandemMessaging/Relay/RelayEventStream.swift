public import Foundation
import TandemAPI
import TandemAccounts
public import TandemBasics

/// `GET /kasia/stream` as an endless sequence of ``IndexerEvent``s (issue 11 item 3).
///
/// The connection is reopened whenever it ends or fails, with `Last-Event-ID` set to the last
/// event received so the relay replays what was missed; waits between attempts double from
/// ``initialBackoff`` to ``maximumBackoff`` on the profile's clock and reset after an event
/// arrives; a `retry:` from the server is the least wait. A 4xx answer (bad watch parameters) ends the sequence with the error instead.
public struct RelayEventStream: Sendable {
    public let server: URL
    private let transport: any EventStreamTransport
    private let clock: any WallClock
    public var initialBackoff: Duration = .milliseconds(500)
    public var maximumBackoff: Duration = .seconds(30)

    public init(server: URL, transport: any EventStreamTransport, clock: any WallClock) {
        self.server = server
        self.transport = transport
        self.clock = clock
    }

    /// Events for rows tagged with any of `aliases` (hex of the alias text, as the indexer
    /// reads take them) or involving any of `addresses`, after `lastEventID` when given.
    public func events(
        aliasHexes: [String], addresses: [String], lastEventID: String? = nil
    ) -> AsyncThrowingStream<IndexerEvent, any Error> {
        let query =
            aliasHexes.sorted().map { URLQueryItem(name: "alias", value: $0) }
            + addresses.sorted().map { URLQueryItem(name: "address", value: $0) }
        let url = KasiaIndexerClient.endpoint(server, APIPath.kasiaStream, query: query)
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: IndexerEvent.self, throwing: (any Error).self)
        let task = Task { [transport, clock, initialBackoff, maximumBackoff] in
            var resumeID = lastEventID
            var backoff = initialBackoff
            // The server's `retry:` field, a floor under the backoff (WHATWG §9.2.6).
            var serverRetry = Duration.zero
            var retryAfter = Duration.zero
            while !Task.isCancelled {
                do {
                    var headers: [(name: String, value: String)] = [(name: "Accept", value: "text/event-stream")]
                    if let resumeID, !resumeID.isEmpty { headers.append((name: "Last-Event-ID", value: resumeID)) }
                    var parser = ServerSentEventParser(lastEventID: resumeID ?? "")
                    for try await chunk in transport.open(TransportRequest(method: "GET", url: url, headers: headers)) {
                        switch chunk {
                        case .head(let status, let fields):
                            guard status == 200 else {
                                throw StreamRefusal(
                                    status: status, retryAfter: fields["retry-after"].flatMap { UInt64($0) })
                            }
                        case .body(let data):
                            let events = parser.feed(data)
                            if let retry = parser.retryMilliseconds { serverRetry = .milliseconds(retry) }
                            for event in events {
                                resumeID = event.lastEventID
                                backoff = initialBackoff
                                // Kinds this build does not know are skipped, not fatal.
                                if let decoded = try IndexerEvent(event) { continuation.yield(decoded) }
                            }
                        }
                    }
                } catch let refusal as StreamRefusal where (400..<500).contains(refusal.status) && refusal.status != 429
                {
                    continuation.finish(
                        throwing: RelayClientError.indexer(status: refusal.status, message: "stream refused"))
                    return
                } catch let error as RelayClientError {
                    continuation.finish(throwing: error)
                    return
                } catch {
                    // A dropped connection or 5xx/429: reconnect after the backoff below, and
                    // never before a 429's `Retry-After`.
                    if let seconds = (error as? StreamRefusal)?.retryAfter {
                        retryAfter = .seconds(Int64(clamping: seconds))
                    }
                }
                do {
                    let wait = max(backoff, serverRetry, retryAfter)
                    retryAfter = .zero
                    try await clock.sleep(until: clock.now.advanced(by: wait), tolerance: nil)
                } catch {
                    break
                }
                backoff = min(backoff * 2, maximumBackoff)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// A non-200 stream answer, handled inside the reconnect loop.
private struct StreamRefusal: Error {
    let status: Int
    let retryAfter: UInt64?
}
