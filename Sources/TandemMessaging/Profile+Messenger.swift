public import Foundation
public import KaspaNode
public import KaspaRPC
public import TandemAccounts
import TandemBasics
public import TandemProfile
import TandemWallet

/// How an app reaches servers and nodes: the transports a messenger is built on. The defaults
/// are URLSession's, which Apple platforms use; the CLI passes its own (AsyncHTTPClient and
/// swift-websocket on NIO).
public struct MessagingNetwork: Sendable {
    /// Whole HTTP exchanges: the relay's submissions and reads, a kasia-indexer, a Resolver.
    public var http: any HTTPTransport
    /// The relay's live stream (server-sent events).
    public var eventStream: any EventStreamTransport
    /// Kaspa nodes' wRPC.
    public var webSocket: any WebSocketTransport

    public init(
        http: any HTTPTransport = URLSessionTransport(),
        eventStream: any EventStreamTransport = URLSessionEventStreamTransport(),
        webSocket: any WebSocketTransport = URLSessionWebSocketTransport()
    ) {
        self.http = http
        self.eventStream = eventStream
        self.webSocket = webSocket
    }

    /// Turns a Resolver URL into the URL of a public node of `network`, asking over ``http``.
    public func resolver(network: KaspaNetworkID) -> @Sendable (URL) async throws -> URL {
        Self.resolver(network: network, over: http)
    }

    /// Turns a Resolver URL into the URL of a public node of `network`, asking over `http`.
    public static func resolver(network: KaspaNetworkID, over http: any HTTPTransport)
        -> @Sendable (URL) async throws -> URL
    {
        { resolver in
            let url = KaspaResolver.lookupURL(resolver: resolver, network: network)
            let response = try await http.send(
                TransportRequest(method: "GET", url: url, headers: [(name: "Accept", value: "application/json")]))
            guard (200..<300).contains(response.status) else {
                throw KaspaNodeError.unreachable(
                    node: URLRedaction.redact(resolver), reason: "the resolver answered HTTP \(response.status)")
            }
            return try KaspaResolver.nodeURL(fromAnswer: response.body)
        }
    }
}

extension Profile {
    /// The messenger this profile is set up for (issue 46 item 3): over the Kaspa network once it
    /// has network settings (``saveKaspaNetworkSettings(_:)``; `tandem kaspa connect`), its wallet
    /// paying for each message; otherwise through the Tandem relay at `server`. The app asks for a
    /// messenger; it does not choose a transport.
    ///
    /// - Parameters:
    ///   - server: the relay, read only when the profile chats through one; nil there means the
    ///     server the profile signed in to (``rememberedServer()``).
    ///   - walkDeadline: over Kaspa, how long one chain walk may read before it stops and keeps
    ///     its place (the node client's default when nil).
    public func messenger(
        relay server: @autoclosure () throws -> URL?, network: MessagingNetwork = MessagingNetwork(),
        walkDeadline: Duration? = nil
    ) throws -> Messenger {
        if let settings = try kaspaNetworkSettings() {
            let configuration = walkDeadline.map {
                KaspaNodeConfiguration(endpoints: settings.endpoints, network: settings.network, walkDeadline: $0)
            }
            return try Messenger(
                profile: self,
                transport: KaspaMessageTransport(
                    profile: self, settings: settings, webSocket: network.webSocket, http: network.http,
                    configuration: configuration, resolve: network.resolver(network: settings.network)))
        }
        guard let server = try server() ?? rememberedServer() else { throw MessagingError.noRelayServer }
        return try Messenger(
            profile: self, server: server, transport: network.http, streamTransport: network.eventStream)
    }
}
