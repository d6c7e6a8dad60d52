import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TandemChatApp
import Testing

/// A page's side of `tandem app` in a test: the printed link traded for the session cookie, then
/// requests with the app's own `Host` and `Origin`, answers parsed as JSON.
struct ChatAppSession {
    let client: TestClient
    let port: Int
    let cookie: String

    /// Opens `access`'s link on `client` (a raw client on the app's port).
    static func open(_ client: TestClient, access: ChatAppAccess) async throws -> ChatAppSession {
        let port = try #require(access.port)
        let link = try #require(access.openURL.flatMap(URLComponents.init(string:)))
        let token = try #require(link.queryItems?.first { $0.name == "token" }?.value)
        let opened = try await client.execute(
            .init("/open?token=\(token)", method: .get, authority: "127.0.0.1:\(port)"))
        let cookie = try #require(opened.head.headerFields[.setCookie]?.split(separator: ";").first.map(String.init))
        return ChatAppSession(client: client, port: port, cookie: cookie)
    }

    struct Answer {
        let status: HTTPResponse.Status
        let json: [String: Any]

        subscript(key: String) -> Any? { json[key] }
        var error: String? { json["error"] as? String }
    }

    func get(_ path: String) async throws -> Answer {
        try await send(.get, path, body: nil)
    }

    func post(_ path: String, _ body: [String: Any]) async throws -> Answer {
        try await send(.post, path, body: try JSONSerialization.data(withJSONObject: body))
    }

    /// A POST of these exact bytes.
    func post(_ path: String, raw: Data) async throws -> Answer {
        try await send(.post, path, body: raw)
    }

    func send(_ method: HTTPRequest.Method, _ path: String, body: Data?) async throws -> Answer {
        var headers: HTTPFields = [.cookie: cookie, .origin: "http://127.0.0.1:\(port)"]
        if body != nil { headers[.contentType] = "application/json" }
        let response = try await client.execute(
            .init(
                path, method: method, authority: "127.0.0.1:\(port)", headers: headers,
                body: body.map { ByteBuffer(bytes: $0) }))
        let bytes = response.body.map { Data(buffer: $0) } ?? Data()
        let json = (try? JSONSerialization.jsonObject(with: bytes)) as? [String: Any] ?? [:]
        return Answer(status: response.status, json: json)
    }
}
