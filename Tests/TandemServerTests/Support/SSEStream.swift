import AsyncHTTPClient
import Foundation
import NIOCore

/// A Server-Sent Events reader over a real loopback HTTP connection (AsyncHTTPClient), for
/// the stream tests: events as the server framed them, comments included.
struct SSEStream {
    struct Event: Equatable, Sendable {
        var event: String?
        var id: String?
        var data: String?
        /// `: text` lines (connected, heartbeat).
        var comment: String?
    }

    private var iterator: HTTPClientResponse.Body.AsyncIterator
    private var pending: [UInt8] = []
    let status: Int

    /// Opens `GET url` with optional `Last-Event-ID`.
    static func open(_ url: String, lastEventID: String? = nil) async throws -> SSEStream {
        var request = HTTPClientRequest(url: url)
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        return SSEStream(iterator: response.body.makeAsyncIterator(), status: Int(response.status.code))
    }

    private init(iterator: HTTPClientResponse.Body.AsyncIterator, status: Int) {
        self.iterator = iterator
        self.status = status
    }

    /// The next event or comment; nil when the server ends the stream.
    mutating func next() async throws -> Event? {
        while true {
            if let end = Self.blockEnd(pending) {
                let block = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeFirst(end + 2)
                return Self.parse(block)
            }
            guard let chunk = try await iterator.next() else { return nil }
            pending += Array(chunk.readableBytesView)
        }
    }

    /// The next event that is not a comment.
    mutating func nextEvent() async throws -> Event? {
        while let event = try await next() {
            if event.comment == nil { return event }
        }
        return nil
    }

    private static func blockEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        for index in 0..<(bytes.count - 1) where bytes[index] == 0x0A && bytes[index + 1] == 0x0A { return index }
        return nil
    }

    private static func parse(_ block: String) -> Event {
        var event = Event()
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") {
                event.comment = line.dropFirst().trimmingCharacters(in: .whitespaces)
            } else if let colon = line.firstIndex(of: ":") {
                let value = String(line[line.index(after: colon)...].drop { $0 == " " })
                switch line[..<colon] {
                case "event": event.event = value
                case "id": event.id = value
                case "data": event.data = value
                default: break
                }
            }
        }
        return event
    }
}

/// Fails a test that waits too long instead of hanging it (a guard, not a sleep the test
/// depends on). A minute: every suite shares one test process on two cores, and a CI run once
/// starved this guard past 20 s while the account suites hashed passwords.
func withDeadline<T: Sendable>(
    seconds: Double = 60, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw DeadlineExceeded()
        }
        guard let first = try await group.next() else { throw DeadlineExceeded() }
        group.cancelAll()
        return first
    }
}

struct DeadlineExceeded: Error {}
