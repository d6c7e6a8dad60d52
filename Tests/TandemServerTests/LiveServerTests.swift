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
    /// Through ``LoopbackServer``, whose client waits out sign-up's queued hash.
    @Test func signUpThenGetSessionOverLoopback() async throws {
        let server = try TestServer()
        try await LoopbackServer.run(configuration: server.configuration, store: server.store) { client in
            try await Self.exercise(client)
        }
    }

    static func exercise(_ client: TestClient) async throws {
        #expect(try await client.get(APIPath.health).head.status == .ok)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        let signUp = try await client.post(
            APIPath.signUpEmail, headers: headers,
            body: ByteBuffer(
                string:
                    #"{"name":"Livia","email":"livia@example.com","password":"correct horse battery","username":"livia"}"#
            ))
        #expect(signUp.head.status == .ok)
        let cookie = try #require(
            signUp.head.headerFields[values: .setCookie].first { $0.hasPrefix(AuthCookie.sessionTokenName + "=") }?
                .split(separator: ";").first.map(String.init))
        var sessionHeaders = HTTPFields()
        sessionHeaders[.cookie] = cookie
        let answer = try await client.get(APIPath.getSession, headers: sessionHeaders)
        let body = try #require(answer.body)
        let session = try APIJSON.decoder().decode(SessionResponse.self, from: Data(body.readableBytesView))
        #expect(session.user.username == "livia")
    }
}
