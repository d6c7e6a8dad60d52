import Contacts
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KaspaCrypto
import TandemAccounts
import TandemChatApp
import TandemMessaging
import TandemProfile
import TestSupport
import Testing

/// `tandem app`'s gate (issue 47 item 1): the printed link's one-time token is traded for a
/// session cookie, and every request without it, with a foreign `Host`, or a change whose
/// `Origin` is not the app's, is refused with 403 before routing.
@Suite struct ChatAppGateTests {
    static let port = 4242
    static let host = "127.0.0.1:4242"

    /// Access listening on ``port``, and its token.
    static func access() throws -> (ChatAppAccess, String) {
        let access = ChatAppAccess()
        access.listening(on: port)
        let link = try #require(access.openURL.flatMap(URLComponents.init(string:)))
        let token = try #require(link.queryItems?.first { $0.name == "token" }?.value)
        #expect(link.host == "127.0.0.1" && link.port == port && link.path == ChatAppAccess.openPath)
        return (access, token)
    }

    @Test func theTokenIsTradedOnceForACookieThatEveryOtherRequestNeeds() throws {
        let unbound = ChatAppAccess()
        #expect(unbound.openURL == nil)
        guard case .refuse = unbound.decide(method: "GET", path: "/", token: nil, host: nil, origin: nil, cookie: nil)
        else {
            Issue.record("an unbound gate let a request through")
            return
        }

        let (access, token) = try Self.access()
        func decide(
            _ method: String = "GET", path: String = "/", token: String? = nil, host: String? = Self.host,
            origin: String? = nil, cookie: String? = nil
        ) -> ChatAppAccess.Decision {
            access.decide(method: method, path: path, token: token, host: host, origin: origin, cookie: cookie)
        }
        func refused(_ decision: ChatAppAccess.Decision) -> Bool {
            if case .refuse = decision { return true }
            return false
        }
        // No cookie yet, a wrong token, a foreign host: refused.
        #expect(refused(decide()))
        #expect(refused(decide(path: ChatAppAccess.openPath, token: String(token.reversed()))))
        #expect(refused(decide(path: ChatAppAccess.openPath, token: token, host: "tandem.example:4242")))
        #expect(refused(decide(path: ChatAppAccess.openPath, token: token, host: "127.0.0.1:4243")))
        #expect(refused(decide("POST", path: ChatAppAccess.openPath, token: token, origin: "http://127.0.0.1:4242")))
        // The right token, once.
        guard case .open(let setCookie) = decide(path: ChatAppAccess.openPath, token: token) else {
            Issue.record("the printed link did not open")
            return
        }
        #expect(refused(decide(path: ChatAppAccess.openPath, token: token)))
        #expect(setCookie.hasPrefix(ChatAppAccess.cookieName(port: Self.port) + "="))
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Path=/"))
        let cookie = try #require(setCookie.split(separator: ";").first.map(String.init))

        #expect(decide(cookie: cookie) == .allow)
        #expect(decide(host: "localhost:4242", cookie: "theme=dark; " + cookie) == .allow)
        #expect(refused(decide(host: "evil.example", cookie: cookie)))
        #expect(refused(decide(host: nil, cookie: cookie)))
        #expect(
            refused(decide(cookie: ChatAppAccess.cookieName(port: Self.port) + "=" + String(repeating: "0", count: 64)))
        )
        // A change needs the app's own Origin, cookie or not.
        #expect(refused(decide("POST", path: "/api/send", cookie: cookie)))
        #expect(refused(decide("POST", path: "/api/send", origin: "http://evil.example", cookie: cookie)))
        #expect(refused(decide("POST", path: "/api/send", origin: "http://127.0.0.1:4243", cookie: cookie)))
        #expect(decide("POST", path: "/api/send", origin: "http://127.0.0.1:4242", cookie: cookie) == .allow)
    }

    @Test func theServerRefusesBeforeRoutingAndServesThePageAndTheListToTheCookie() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let profile = Profile(directory: directory.url.appendingPathComponent("profile"))
        _ = try profile.importWalletKey(PrivateKey.generate())
        let peer = ContactAddress(KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey))
        let wallet = ContactAddress(KaspaAddress(publicKey: try profile.walletKey().xOnlyPublicKey))
        _ = try profile.openContacts().add(peer, wallet: wallet, alias: "Rhea")
        // The list is read from the profile's own stores; the relay is never called here.
        let messenger = try profile.messenger(
            relay: URL(string: "http://127.0.0.1:9"), network: MessagingNetwork(http: URLSessionTransport()))
        let access = ChatAppAccess()
        let app = buildChatApp(messenger: messenger, access: access)

        // A real server on a free port (onServerRunning tells the gate which), asked by a client
        // that sets every header itself.
        try await app.test(.live) { client in
            let port = try #require(client.port)
            #expect(access.port == port)
            let link = try #require(access.openURL.flatMap(URLComponents.init(string:)))
            let token = try #require(link.queryItems?.first { $0.name == "token" }?.value)
            let ownHost = "127.0.0.1:\(port)"
            try await TestClient.withClient(host: "127.0.0.1", port: port) { raw in
                func send(
                    _ method: HTTPRequest.Method, _ path: String, host: String? = nil, origin: String? = nil,
                    cookie: String? = nil
                ) async throws -> TestClient.Response {
                    var headers: HTTPFields = [:]
                    if let origin { headers[.origin] = origin }
                    if let cookie { headers[.cookie] = cookie }
                    return try await raw.execute(
                        .init(path, method: method, authority: host ?? ownHost, headers: headers))
                }
                #expect(try await send(.get, "/").status == .forbidden)
                #expect(try await send(.get, "/no/such/page", host: "evil.example").status == .forbidden)
                #expect(try await send(.get, "/no/such/page").status == .forbidden)
                #expect(try await send(.get, "/open?token=nope").status == .forbidden)

                let opened = try await send(.get, "/open?token=\(token)")
                #expect(opened.status == .seeOther)
                #expect(opened.head.headerFields[.location] == "/")
                let cookie = try #require(
                    opened.head.headerFields[.setCookie]?.split(separator: ";").first.map(String.init))
                #expect(try await send(.get, "/open?token=\(token)").status == .forbidden)

                let page = try await send(.get, "/", cookie: cookie)
                #expect(page.status == .ok)
                #expect(page.head.headerFields[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
                #expect(page.head.headerFields[.accessControlAllowOrigin] == nil)
                #expect(page.body.map { String(buffer: $0) }?.contains("Conversations") == true)
                #expect(try await send(.get, "/chat.js", cookie: cookie).status == .ok)

                let list = try await send(.get, "/api/conversations", cookie: cookie)
                #expect(list.status == .ok)
                let body = try #require(list.body)
                let json = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]
                let rows = try #require(json?["conversations"] as? [[String: Any]])
                #expect(rows.map { $0["address"] as? String } == [peer.description])
                #expect(rows.first?["alias"] as? String == "Rhea")

                let foreign = try await send(.post, "/api/conversations", origin: "http://evil.example", cookie: cookie)
                #expect(foreign.status == .forbidden)
                #expect(
                    try await send(.get, "/api/conversations", host: "localhost:1", cookie: cookie).status == .forbidden
                )
            }
        }
    }

    @Test func oneAppPerProfileAndTheSecondNamesThePortOfTheFirst() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var first: ChatAppLock? = try ChatAppLock(profileDirectory: directory.url)
        first?.record(port: 5151)
        #expect(throws: ChatAppLock.Failure.held(port: 5151)) { try ChatAppLock(profileDirectory: directory.url) }
        first = nil
        let second = try ChatAppLock(profileDirectory: directory.url)
        second.record(port: 5152)
        #expect(throws: ChatAppLock.Failure.held(port: 5152)) { try ChatAppLock(profileDirectory: directory.url) }
    }
}
