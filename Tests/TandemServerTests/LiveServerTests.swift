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
    @Test func signUpThenGetSessionOverLoopback() async throws {
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
