import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import TandemAPI
import Testing

@testable import TandemServer

/// `--trusted-proxy CIDR` (issue 13 item 5): rate limits key on `X-Forwarded-For` only when
/// the TCP peer is a configured proxy, and then on the right-most hop that is no proxy.
@Suite struct TrustedProxyTests {
    static let proxies = TrustedProxies(cidrs: ["10.0.0.0/8", "::1/128", "192.168.1.7"])

    @Test func cidrBlocksParseAndMatch() throws {
        let proxies = try #require(Self.proxies)
        #expect(proxies.isTrusted("10.200.3.4"))
        #expect(proxies.isTrusted("::1"))
        #expect(proxies.isTrusted("::ffff:10.0.0.1"))
        #expect(proxies.isTrusted("192.168.1.7"))
        #expect(!proxies.isTrusted("192.168.1.8"))
        #expect(!proxies.isTrusted("11.0.0.1"))
        #expect(!proxies.isTrusted(nil))
        #expect(TrustedProxies(cidrs: ["10.0.0.0/33"]) == nil)
        #expect(TrustedProxies(cidrs: ["not-an-ip/8"]) == nil)
        #expect(TrustedProxies(cidrs: ["2001:db8::/129"]) == nil)
    }

    @Test func forwardedForCountsOnlyFromATrustedPeer() throws {
        let proxies = try #require(Self.proxies)
        // An untrusted peer: its header is ignored.
        #expect(proxies.clientAddress(peer: "203.0.113.9", forwardedFor: ["198.51.100.1"]) == "203.0.113.9")
        // A trusted proxy: the right-most hop that is not a proxy; spoofed hops to its left are ignored.
        #expect(
            proxies.clientAddress(peer: "10.0.0.2", forwardedFor: ["1.2.3.4, 198.51.100.7", "10.1.1.1"])
                == "198.51.100.7")
        // Only proxies in the chain: the left-most hop.
        #expect(proxies.clientAddress(peer: "10.0.0.2", forwardedFor: ["10.9.9.9"]) == "10.9.9.9")
        // A trusted proxy without the header: the proxy itself.
        #expect(proxies.clientAddress(peer: "10.0.0.2", forwardedFor: []) == "10.0.0.2")
    }

    /// Through the server: three failed sign-ins from one untrusted peer fill its window, and
    /// a fourth with a new `X-Forwarded-For` each time is still limited.
    @Test func forwardedForFromAnUntrustedPeerDoesNotChangeTheRateLimitKey() async throws {
        let server = try TestServer(rateLimiting: true)
        try await server.test { api in
            for index in 0..<3 {
                let answer = try await api.send(
                    .post, APIPath.signInUsername, json: #"{"username":"nobody_b","password":"x"}"#,
                    headers: ["X-Forwarded-For": "198.51.100.\(index)"])
                #expect(answer.status == .unauthorized)
            }
            let spoofed = try await api.send(
                .post, APIPath.signInUsername, json: #"{"username":"nobody_b","password":"x"}"#,
                headers: ["X-Forwarded-For": "203.0.113.77"])
            #expect(spoofed.status == .tooManyRequests)
        }
    }

    /// Over real loopback sockets the TCP peer is 127.0.0.1. With loopback configured as a
    /// proxy, each `X-Forwarded-For` client gets its own rate-limit window; without it, every
    /// header lands in the peer's one window.
    @Test func overLoopbackATrustedProxysClientsEachGetTheirOwnWindow() async throws {
        try await Self.liveSignIns(proxies: ["127.0.0.1/32", "::1/128"]) { (signIn) async throws in
            for _ in 0..<3 { #expect(try await signIn("198.51.100.1") == .unauthorized) }
            #expect(try await signIn("198.51.100.1") == .tooManyRequests)
            // A second client behind the same proxy is not limited by the first one's failures,
            // and a spoofed left-most hop does not move the first client out of its window.
            #expect(try await signIn("198.51.100.2") == .unauthorized)
            #expect(try await signIn("203.0.113.5, 198.51.100.1") == .tooManyRequests)
        }
    }

    @Test func overLoopbackWithoutATrustedProxyForwardedForIsIgnored() async throws {
        try await Self.liveSignIns(proxies: []) { (signIn) async throws in
            for index in 0..<3 { #expect(try await signIn("198.51.100.\(index)") == .unauthorized) }
            #expect(try await signIn("198.51.100.9") == .tooManyRequests)
        }
    }

    /// Runs `body` against the production application on a live loopback port, with rate
    /// limits on; `body` gets a failed sign-in that carries one `X-Forwarded-For` value.
    static func liveSignIns(
        proxies cidrs: [String],
        _ body: @escaping @Sendable (@Sendable (String) async throws -> HTTPResponse.Status) async throws -> Void
    ) async throws {
        let server = try TestServer(rateLimiting: true)
        var configuration = server.configuration
        configuration.trustedProxies = try #require(TrustedProxies(cidrs: cidrs))
        try await LoopbackServer.run(configuration: configuration, store: server.store) { client in
            try await body { forwardedFor in
                var headers = HTTPFields()
                headers[try #require(HTTPField.Name("X-Forwarded-For"))] = forwardedFor
                return try await LoopbackServer.post(
                    client, APIPath.signInUsername, json: #"{"username":"nobody_c","password":"x"}"#, headers: headers
                ).head.status
            }
        }
    }
}
