import Foundation
import KaspaCrypto
import KaspaNode
import KaspaRPC
import KaspaSimNode
import TandemNIOTransport
import TandemProfile
import TandemWallet
import TestSupport

/// A simulated node serving `ports` ports and a fresh profile with a fixed wallet key, for the
/// client-against-node tests: everything over real WebSockets on loopback.
struct SimulatedNetwork {
    let node: SimulatedKaspaNode
    let servers: [RunningNodeServer]
    let profile: Profile
    let key: PrivateKey

    var address: KaspaAddress { KaspaAddress(publicKey: key.xOnlyPublicKey, network: .testnet) }
    var urls: [URL] { servers.compactMap { URL(string: $0.url) } }

    static let keyHex = "1de32ec684f4a3d850f896ba14c68d45f9d345934cdd410d090ab38213f00a7e"
    static let peerKeyHex = "6c1f7d4e3bb0f4a8a4c6e77b5d2f0b9e1a3d5c7e9f1b3d5f7a9c1e3b5d7f9a1c"

    /// Runs `body` with a node on `ports` ports, answering `feeEstimate`, and a profile holding the
    /// fixed key.
    static func with<T>(
        ports: Int = 1, keyHex: String = keyHex,
        feeEstimate: RPCFeeEstimate = SimulatedNodeConfiguration.defaultFeeEstimate,
        _ body: (SimulatedNetwork) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let profile = Profile(directory: directory.url)
        let key = try PrivateKey(hex: keyHex)
        try profile.importWalletKey(key)
        let node = SimulatedKaspaNode()
        let configurations = Array(repeating: SimulatedNodeConfiguration(feeEstimate: feeEstimate), count: ports)
        return try await node.serve(configurations) { servers in
            try await body(SimulatedNetwork(node: node, servers: servers, profile: profile, key: key))
        }
    }

    /// The default limit is long: every suite shares one test process on two cores, and a CI run
    /// once kept the node's answers from the wallet tests past 5 s. Tests of a stalled node pass
    /// their own, shorter limit.
    func configuration(
        callTimeout: Duration = .seconds(30), pingInterval: Duration = .seconds(5)
    ) -> KaspaNodeConfiguration {
        KaspaNodeConfiguration(
            endpoints: urls.map(NodeEndpoint.node), network: .testnet10, callTimeout: callTimeout,
            pingInterval: pingInterval, backoff: NodeBackoff(initial: .milliseconds(20), maximum: .milliseconds(200)))
    }

    func client(callTimeout: Duration = .seconds(30), pingInterval: Duration = .seconds(5)) -> KaspaNodeClient {
        KaspaNodeClient(
            configuration: configuration(callTimeout: callTimeout, pingInterval: pingInterval),
            transport: WebSocketClientTransport())
    }

    /// The profile's wallet on this node, with waits for a full mempool short enough for a test.
    func wallet(client: KaspaNodeClient? = nil) throws -> KaspaWallet {
        let settings = KaspaNetworkSettings(network: .testnet10, nodes: urls)
        try profile.saveKaspaNetworkSettings(settings)
        return try KaspaWallet(
            profile: profile, settings: settings, node: client ?? self.client(),
            retry: WalletRetryPolicy(mempoolFullDelays: [.milliseconds(10), .milliseconds(10)]))
    }
}
