import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import TandemAPI
import TandemServer
import Testing

/// The same application over real loopback sockets.
@Suite struct LiveServerTests {
    /// Alone this passes in about a second; amid the whole parallel suite on two cores its live
    /// client timed out after ~100 s with CPU idle (session 3, after the account and sync suites
    /// landed). Disabled until that stall is understood; the CLI suites cover sign-up over real
    /// loopback against `tandem serve` processes meanwhile.
    @Test(.disabled("stalls amid the full parallel suite; see the note above (issue 14)"))
    func signUpThenGetSessionOverLoopback() async throws {
        let server = try TestServer()
        var logger = Logger(label: "live")
        logger.logLevel = .critical
        let app = try buildApplication(configuration: server.configuration, store: server.store, logger: logger)
        try await app.test(.live) { client in
            let api = APIClient(client: client)
            #expect(try await api.send(.get, APIPath.health).status == .ok)
            let signUp = try await api.signUp("livia")
            #expect(signUp.status == .ok)
            let session = try await api.getSession(cookie: signUp.sessionCookie).decode(SessionResponse.self)
            #expect(session.user.username == "livia")
        }
    }
}
