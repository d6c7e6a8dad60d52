import AsyncHTTPClient
import BenchSupport
import Foundation
import NIOCore
import NIOHTTP1
import TandemAPI

/// The routes the crash harness writes and reads, over AsyncHTTPClient against one server port.
///
/// Only a complete answer counts as an acknowledgement (issue 14 item 4): a refused connect, a
/// reset or a body cut short is ``CrashClientError/transport(_:)`` and the write is
/// unacknowledged. Each request asks for `Connection: close`, so no answer is ever half-read
/// from a kept-alive connection when the server is killed, and every request after a restart
/// opens its own connection to the new port.
///
/// Cookie-bearing writes carry the server's own Origin (betterauth-api.md §10 rule 1), as a
/// browser on that origin would.
struct CrashClient: Sendable {
    let http: HTTPClient
    let port: Int
    /// A server that stops answering is a transport failure, not a hang.
    static let timeout: TimeAmount = .seconds(60)
    /// Larger answers than any route gives are refused.
    static let maximumBody = 1 << 26

    struct Response: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: [UInt8]

        func header(_ name: String) -> [String] { headers[name] }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// `user` of a sign-up, sign-in or get-session answer: only the id is checked.
    private struct UserEnvelope: Decodable {
        struct User: Decodable { let id: String }
        let user: User
    }

    var origin: String { "http://127.0.0.1:\(port)" }

    /// A request that must answer `expected`; any other answer is ``CrashClientError/status``.
    func send(
        _ method: HTTPMethod, _ path: String, cookie: String? = nil, body: [UInt8]? = nil,
        expected: Set<Int> = [200]
    ) async throws -> Response {
        var request = HTTPClientRequest(url: origin + path)
        request.method = method
        request.headers.add(name: "Connection", value: "close")
        if let cookie {
            request.headers.add(name: "Cookie", value: cookie)
            if method != .GET { request.headers.add(name: "Origin", value: origin) }
        }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response: Response
        do {
            let answer = try await http.execute(request, timeout: Self.timeout)
            let bytes = try await answer.body.collect(upTo: Self.maximumBody)
            response = Response(status: Int(answer.status.code), headers: answer.headers, body: Array(buffer: bytes))
        } catch {
            throw CrashClientError.transport("\(method) \(path): \(error)")
        }
        guard expected.contains(response.status) else {
            throw CrashClientError.status(method: "\(method)", path: path, status: response.status, body: response.text)
        }
        return response
    }

    /// `POST /api/auth/sign-up/email` or `/sign-in/username`: the session cookie
    /// (`name=value`) and the user id it belongs to.
    func authenticate(_ path: String, body: [UInt8]) async throws -> CrashLedger.Session {
        let response = try await send(.POST, path, body: body)
        let prefix = AuthCookie.sessionTokenName + "="
        guard
            let field = response.header("set-cookie").first(where: { $0.hasPrefix(prefix) }),
            let pair = field.split(separator: ";").first
        else { throw CrashClientError.malformed("\(path) answered 200 without a session cookie") }
        let user = try decode(UserEnvelope.self, response, path)
        return CrashLedger.Session(cookie: String(pair), userID: user.user.id)
    }

    func signUp(username: String, password: String) async throws -> CrashLedger.Session {
        let request = SignUpEmailRequest(
            name: "Crash", email: username + "@example.com", password: password, username: username)
        return try await authenticate(APIPath.signUpEmail, body: Array(try JSONEncoder().encode(request)))
    }

    func signIn(username: String, password: String) async throws -> CrashLedger.Session {
        let request = SignInUsernameRequest(username: username, password: password)
        return try await authenticate(APIPath.signInUsername, body: Array(try JSONEncoder().encode(request)))
    }

    /// The user id the cookie's session resolves to; nil when get-session answers `null`.
    func sessionUserID(cookie: String) async throws -> String? {
        let response = try await send(.GET, APIPath.getSession, cookie: cookie)
        if response.text.trimmingCharacters(in: .whitespacesAndNewlines) == "null" { return nil }
        return try decode(UserEnvelope.self, response, APIPath.getSession).user.id
    }

    func decode<T: Decodable>(_ type: T.Type, _ response: Response, _ path: String) throws -> T {
        do { return try JSONDecoder().decode(type, from: Data(response.body)) } catch {
            throw CrashClientError.malformed("\(path) answered \(response.status) with an unreadable body: \(error)")
        }
    }
}

/// An answer the harness did not expect from a live server, or no complete answer at all.
enum CrashClientError: Error, CustomStringConvertible {
    case status(method: String, path: String, status: Int, body: String)
    case malformed(String)
    /// No complete answer: the connection was refused, reset or cut short.
    case transport(String)

    var description: String {
        switch self {
        case .status(let method, let path, let status, let body):
            "\(method) \(path) answered \(status): \(body.prefix(300))"
        case .malformed(let message), .transport(let message): message
        }
    }
}
