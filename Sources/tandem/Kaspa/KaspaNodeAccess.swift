import Foundation
import KaspaNode
import KaspaRPC
import TandemBasics
import TandemMessaging
import TandemNIOTransport
import TandemProfile
import TandemWallet

/// How `tandem` reaches Kaspa nodes: swift-websocket's NIO client for the WebSocket, and
/// AsyncHTTPClient for a Resolver's lookup (issue 24 item 1; the library defaults are
/// URLSession's, which Apple apps use).
enum KaspaNodeAccess {
    static let transport = WebSocketClientTransport()

    /// Turns a Resolver URL into the URL of a public node of `network`.
    static func resolver(network: KaspaNetworkID) -> @Sendable (URL) async throws -> URL {
        MessagingNetwork.resolver(network: network, over: HTTPClientTransport())
    }

    /// The profile's wallet on its saved network.
    static func wallet(_ profile: Profile) throws -> KaspaWallet {
        let settings: KaspaNetworkSettings?
        do { settings = try profile.kaspaNetworkSettings() } catch { throw CLIError(error.description) }
        guard let settings else {
            throw CLIError(
                "profile \(profile.directory.path) is not on the Kaspa network (run `tandem kaspa connect` first)")
        }
        do {
            return try KaspaWallet(
                profile: profile, transport: transport, resolve: resolver(network: settings.network))
        } catch {
            throw CLIError(error.description)
        }
    }
}

/// Runs a wallet or node call, turning its failure into one CLI line.
func walletCall<T>(_ body: () async throws -> T) async throws -> T {
    do { return try await body() } catch let error as CLIError { throw error } catch {
        throw CLIError(String(describing: error))
    }
}
