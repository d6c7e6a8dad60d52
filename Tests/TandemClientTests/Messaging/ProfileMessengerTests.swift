import Foundation
import KaspaCrypto
import TandemMessaging
import TandemProfile
import TandemWallet
import TestSupport
import Testing

/// Issue 46 item 3: the library, not the CLI or an app, chooses how a profile chats.
@Suite("Profile.messenger: the transport the profile is set up for")
struct ProfileMessengerTests {
    struct Unread: Error {}

    static func profile(_ scratch: TemporaryDirectory) throws -> Profile {
        let profile = Profile(directory: scratch.url.appendingPathComponent("p", isDirectory: true))
        _ = try profile.createWalletKey()
        return profile
    }

    @Test func aProfileWithoutNetworkSettingsChatsThroughTheRelayItIsGiven() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let profile = try Self.profile(scratch)
        let server = try #require(URL(string: "http://127.0.0.1:9"))
        let messenger = try profile.messenger(relay: server)
        let relay = try #require(messenger.transport as? RelayMessageTransport)
        #expect(relay.relay.server == server)
        #expect(messenger.transport.network == .mainnet)
    }

    @Test func withoutANamedRelayItUsesTheRememberedServerElseSaysSo() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let profile = try Self.profile(scratch)
        #expect(throws: MessagingError.noRelayServer) { try profile.messenger(relay: nil) }
        let remembered = try #require(URL(string: "https://tandem.example.com"))
        try profile.rememberServer(remembered)
        let relay = try #require(try profile.messenger(relay: nil).transport as? RelayMessageTransport)
        #expect(relay.relay.server == remembered)
    }

    /// After the network settings are saved the profile chats over Kaspa, on the settings'
    /// network, and the relay argument is never read.
    @Test func aProfileOnTheKaspaNetworkGetsTheKaspaTransport() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let profile = try Self.profile(scratch)
        let node = try #require(URL(string: "ws://127.0.0.1:9"))
        try profile.saveKaspaNetworkSettings(KaspaNetworkSettings(network: .testnet10, nodes: [node]))
        func unread() throws -> URL? { throw Unread() }
        let messenger = try profile.messenger(relay: unread())
        #expect(messenger.transport is KaspaMessageTransport)
        #expect(messenger.transport.network == .testnet)
        #expect(messenger.address == KaspaAddress(publicKey: try profile.walletKey().xOnlyPublicKey, network: .testnet))
    }
}
