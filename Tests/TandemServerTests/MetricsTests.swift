import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import TandemAPI
import TandemBasics
import TandemTesting
import TestSupport
import Testing

@testable import TandemServer

/// `GET /metrics` and request ids (issue 13 item 6).
@Suite struct MetricsTests {
    static func server(metrics: Bool) throws -> (TestServer, ServerConfiguration) {
        let server = try TestServer(rateLimiting: true)
        var configuration = server.configuration
        configuration.metrics = metrics
        return (server, configuration)
    }

    @Test func metricsAreOffByDefault() async throws {
        let server = try TestServer()
        try await server.test { api async throws in
            let answer = try await api.send(.get, APIPath.metrics)
            #expect(answer.status == .notFound)
        }
    }

    @Test func metricsCountRequestsSignInFailuresAndRateLimitHits() async throws {
        let (server, configuration) = try Self.server(metrics: true)
        let logger = Logger.quiet("metrics")
        let app = try buildApplication(configuration: configuration, store: server.store, logger: logger)
        try await app.test(.router) { client in
            let api = APIClient(client: client)
            #expect(try await api.signUp("ivan").status == .ok)
            for _ in 0..<4 { _ = try await api.signIn("ivan", password: "wrong password") }
            _ = try await api.send(.get, "/no/such/path")
            let answer = try await api.send(.get, APIPath.metrics)
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = answer.text
            #expect(
                text.contains(
                    #"tandem_http_requests_total{method="POST",route="/api/auth/sign-up/email",status="200"} 1"#))
            #expect(
                text.contains(
                    #"tandem_http_requests_total{method="POST",route="/api/auth/sign-in/username",status="401"} 3"#))
            #expect(text.contains(#"tandem_sign_in_failures_total{route="/api/auth/sign-in/username"} 3"#))
            #expect(text.contains(#"tandem_rate_limited_total{route="/api/auth/sign-in/username"} 1"#))
            #expect(text.contains(#"route="unmatched",status="404""#))
            #expect(text.contains("tandem_http_request_duration_seconds_bucket"))
            #expect(text.contains("\ntandem_relay_streams 0"))
            #expect(text.contains("\ntandem_database_operations_in_flight "))
        }
    }

    @Test func requestIdsAreEchoedOrGenerated() async throws {
        let server = try TestServer()
        try await server.test { api in
            let echoed = try await api.send(.get, APIPath.health, headers: ["X-Request-Id": "abc-123.x_y"])
            #expect(echoed.headers[.init("X-Request-Id")!] == "abc-123.x_y")
            let replaced = try await api.send(.get, APIPath.health, headers: ["X-Request-Id": "bad id\u{7}"])
            let generated = try #require(replaced.headers[.init("X-Request-Id")!])
            #expect(generated != "bad id\u{7}" && UUID(uuidString: generated) != nil)
            let failed = try await api.send(.post, APIPath.signInUsername, json: "{}")
            #expect(failed.status == .badRequest)
            #expect(failed.headers[.init("X-Request-Id")!] != nil)
        }
    }

    @Test func jsonLogLinesCarryTheMessageAndMetadata() throws {
        let lines = CollectedLines()
        var logger = Logger(label: "json") { label in
            JSONLogHandler(label: label, level: .info) { lines.append($0) }
        }
        logger[metadataKey: "request_id"] = "r1"
        logger.info("user registered", metadata: ["user": "u1"])
        logger.debug("dropped")
        let line = try #require(lines.all.first)
        #expect(lines.all.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["message"] as? String == "user registered")
        #expect(object["level"] as? String == "info")
        #expect(object["request_id"] as? String == "r1")
        #expect(object["user"] as? String == "u1")
        #expect(line.hasSuffix("\n"))
    }
}

/// Collected log lines, for the JSON log handler's test.
final class CollectedLines: Sendable {
    private let box = Locked<[String]>([])
    func append(_ line: String) { box.withLock { $0.append(line) } }
    var all: [String] { box.withLock { $0 } }
}
