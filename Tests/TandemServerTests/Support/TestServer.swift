import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import TandemAPI
import TandemBasics
import TandemServer
import TandemServerStore
import TandemTesting
import TestSupport

/// A server on a fresh SQLite file with a manual clock, built by the production builder.
struct TestServer {
    let directory: TemporaryDirectory
    let store: SQLiteServerStore
    let clock: ManualClock
    var configuration: ServerConfiguration

    static let secret = "test-secret-0123456789abcdef0123456789"
    /// scrypt at N = 16 instead of BetterAuth's 16,384 (issue 45 item 2): these tests make
    /// hundreds of accounts, and the hash's cost is what CryptoVectorTests check, not theirs.
    static let fastHasher = PasswordHasher(rounds: 16)

    init(
        rateLimiting: Bool = false, trustedOrigins: [String] = ["myapp://"],
        passwordHasher: PasswordHasher = TestServer.fastHasher
    ) throws {
        directory = try TemporaryDirectory()
        store = try SQLiteServerStore(fileURL: directory.url.appendingPathComponent("tandem.sqlite"))
        clock = ManualClock(UnixMillis(1_800_000_000_000))
        configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: directory.url, secret: Self.secret,
            trustedOrigins: trustedOrigins, rateLimiting: rateLimiting, clock: clock, passwordHasher: passwordHasher,
            connections: Self.patientConnections)
    }

    /// Connection limits for test clients, which connect before their first request and, on a
    /// loaded machine, may send it minutes later; ConnectionGuardTests set their own.
    static let patientConnections = ConnectionLimits(headerTimeout: .seconds(900), idleTimeout: .seconds(900))

    /// Runs `body` against the application through HummingbirdTesting's router framework.
    func test(_ body: @escaping @Sendable (APIClient) async throws -> Void) async throws {
        let logger = Logger.quiet("test")
        let app = try buildApplication(configuration: configuration, store: store, logger: logger)
        try await app.test(.router) { client in try await body(APIClient(client: client)) }
    }
}

/// Small conveniences over the test client: JSON bodies, cookies and decoded answers.
struct APIClient: Sendable {
    let client: any TestClientProtocol

    struct Answer: Sendable {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let body: Data

        var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) as? [String: Any]
        }
        var text: String { String(decoding: body, as: UTF8.self) }
        var setCookies: [String] { headers[values: .setCookie] }
        var errorCode: String? { json?["code"] as? String }

        /// `name=value` of the session cookie this answer set, for the next request.
        var sessionCookie: String? {
            setCookies.first { $0.hasPrefix(AuthCookie.sessionTokenName + "=") }?
                .split(separator: ";").first.map(String.init)
        }

        func decode<T: Decodable>(_ type: T.Type) throws -> T { try APIJSON.decoder().decode(T.self, from: body) }
    }

    func send(
        _ method: HTTPRequest.Method, _ path: String, json: String? = nil, rawBody: Data? = nil,
        contentType: String? = "application/json", cookie: String? = nil, origin: String? = nil,
        headers extra: [String: String] = [:]
    ) async throws -> Answer {
        var headers = HTTPFields()
        let bodyData = rawBody ?? json.map { Data($0.utf8) }
        if bodyData != nil, let contentType { headers[.contentType] = contentType }
        if let cookie { headers[.cookie] = cookie }
        if let origin { headers[.origin] = origin }
        for (name, value) in extra { if let field = HTTPField.Name(name) { headers[field] = value } }
        let response = try await client.execute(
            uri: path, method: method, headers: headers, body: bodyData.map { ByteBuffer(bytes: $0) })
        let body = Data(response.body.readableBytesView)
        return Answer(status: response.status, headers: response.headers, body: body)
    }

    /// Registers `username` (password `correct horse battery`) and returns the answer.
    @discardableResult
    func signUp(_ username: String, email: String? = nil, password: String = "correct horse battery") async throws
        -> Answer
    {
        let email = email ?? "\(username.lowercased())@example.com"
        return try await send(
            .post, APIPath.signUpEmail,
            json: """
                {"name":"\(username) Name","email":"\(email)","password":"\(password)","username":"\(username)"}
                """)
    }

    func signIn(_ username: String, password: String = "correct horse battery") async throws -> Answer {
        try await send(.post, APIPath.signInUsername, json: #"{"username":"\#(username)","password":"\#(password)"}"#)
    }

    func getSession(cookie: String?) async throws -> Answer {
        try await send(.get, APIPath.getSession, cookie: cookie)
    }
}
