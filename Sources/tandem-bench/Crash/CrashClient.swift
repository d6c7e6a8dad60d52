import Foundation
import TandemAPI

/// The routes the crash harness writes and reads, over ``CrashHTTP`` against one server port.
///
/// Cookie-bearing writes carry the server's own Origin (betterauth-api.md §10 rule 1), as a
/// browser on that origin would.
struct CrashClient {
    let port: Int

    /// `user` of a sign-up, sign-in or get-session answer: only the id is checked.
    private struct UserEnvelope: Decodable {
        struct User: Decodable { let id: String }
        let user: User
    }

    var origin: String { "http://127.0.0.1:\(port)" }

    /// A request that must answer `expected`; any other answer is ``CrashClientError/status``.
    func send(
        _ method: String, _ path: String, cookie: String? = nil, body: [UInt8]? = nil, expected: Set<Int> = [200]
    ) throws -> CrashHTTP.Response {
        var headers: [(String, String)] = []
        if let cookie {
            headers.append(("Cookie", cookie))
            if method != "GET" { headers.append(("Origin", origin)) }
        }
        let response = try CrashHTTP.exchange(port: port, method: method, path: path, headers: headers, body: body)
        guard expected.contains(response.status) else {
            throw CrashClientError.status(method: method, path: path, status: response.status, body: response.text)
        }
        return response
    }

    /// `POST /api/auth/sign-up/email` or `/sign-in/username`: the session cookie
    /// (`name=value`) and the user id it belongs to.
    func authenticate(_ path: String, body: [UInt8]) throws -> CrashLedger.Session {
        let response = try send("POST", path, body: body)
        let prefix = AuthCookie.sessionTokenName + "="
        guard
            let field = response.header("set-cookie").first(where: { $0.hasPrefix(prefix) }),
            let pair = field.split(separator: ";").first
        else { throw CrashClientError.malformed("\(path) answered 200 without a session cookie") }
        let user = try decode(UserEnvelope.self, response, path)
        return CrashLedger.Session(cookie: String(pair), userID: user.user.id)
    }

    func signUp(username: String, password: String) throws -> CrashLedger.Session {
        let request = SignUpEmailRequest(
            name: "Crash", email: username + "@example.com", password: password, username: username)
        return try authenticate(APIPath.signUpEmail, body: Array(try JSONEncoder().encode(request)))
    }

    func signIn(username: String, password: String) throws -> CrashLedger.Session {
        let request = SignInUsernameRequest(username: username, password: password)
        return try authenticate(APIPath.signInUsername, body: Array(try JSONEncoder().encode(request)))
    }

    /// The user id the cookie's session resolves to; nil when get-session answers `null`.
    func sessionUserID(cookie: String) throws -> String? {
        let response = try send("GET", APIPath.getSession, cookie: cookie)
        if response.text.trimmingCharacters(in: .whitespacesAndNewlines) == "null" { return nil }
        return try decode(UserEnvelope.self, response, APIPath.getSession).user.id
    }

    func decode<T: Decodable>(_ type: T.Type, _ response: CrashHTTP.Response, _ path: String) throws -> T {
        do { return try JSONDecoder().decode(type, from: Data(response.body)) } catch {
            throw CrashClientError.malformed("\(path) answered \(response.status) with an unreadable body: \(error)")
        }
    }
}

/// An answer the harness did not expect from a live server.
enum CrashClientError: Error, CustomStringConvertible {
    case status(method: String, path: String, status: Int, body: String)
    case malformed(String)

    var description: String {
        switch self {
        case .status(let method, let path, let status, let body):
            "\(method) \(path) answered \(status): \(body.prefix(300))"
        case .malformed(let message): message
        }
    }
}
