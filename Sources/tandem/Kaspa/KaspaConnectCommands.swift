public import ArgumentParser
import Foundation
import KaspaCrypto
import KaspaNode
public import KaspaRPC
import TandemProfile
import TandemWallet

extension KaspaNetworkID: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

/// The JSON of `kaspa connect` and `kaspa status`.
struct KaspaStatusOutput: Encodable {
    let network: String
    let node: String
    let synced: Bool
    let virtualDaaScore: UInt64
    let serverVersion: String
    let hasUtxoIndex: Bool
    let address: String?
    let indexer: String?
    let nodes: [String]
    let resolver: String?

    init(settings: KaspaNetworkSettings, snapshot: ServerInfoSnapshot, address: KaspaAddress?) {
        network = settings.network.description
        node = snapshot.node.absoluteString
        synced = snapshot.info.isSynced
        virtualDaaScore = snapshot.virtualDaaScore
        serverVersion = snapshot.info.serverVersion
        hasUtxoIndex = snapshot.info.hasUtxoIndex
        self.address = address?.description
        indexer = settings.indexer?.absoluteString
        nodes = settings.nodes.map(\.absoluteString)
        resolver = settings.resolver?.absoluteString
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(network, forKey: .network)
        try container.encode(node, forKey: .node)
        try container.encode(synced, forKey: .synced)
        try container.encode(virtualDaaScore, forKey: .virtualDaaScore)
        try container.encode(serverVersion, forKey: .serverVersion)
        try container.encode(hasUtxoIndex, forKey: .hasUtxoIndex)
        try container.encode(address, forKey: .address)
        try container.encode(indexer, forKey: .indexer)
        try container.encode(nodes, forKey: .nodes)
        try container.encode(resolver, forKey: .resolver)
    }

    enum CodingKeys: String, CodingKey {
        case network, node, synced, virtualDaaScore, serverVersion, hasUtxoIndex, address, indexer, nodes, resolver
    }

    var line: String {
        "\(network) via \(node): \(synced ? "synced" : "not synced"), virtual DAA score \(virtualDaaScore), rusty-kaspa \(serverVersion)\n"
    }
}

extension KaspaCommand {
    /// `tandem kaspa connect`: checks the nodes, then saves the profile's network settings.
    struct Connect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "connect",
            abstract: "Put the profile on the Kaspa network: check the nodes, then save them.",
            discussion: """
                Each node (wRPC JSON, ws:// or wss://) must be on --network, synced and run with \
                --utxoindex. Nodes are tried in the order given, then the Resolver's pick. After \
                this, `tandem wallet` and `tandem chat` use the Kaspa network; `tandem kaspa \
                disconnect` returns the profile to the relay.
                """)

        @Option(name: .long, help: "mainnet or testnet-10 (any network id: testnet-11, simnet, devnet).")
        var network: KaspaNetworkID
        @Option(
            name: .customLong("node"),
            help: ArgumentHelp("A node's wRPC JSON URL; repeat for several.", valueName: "url"))
        var nodes: [String] = []
        @Option(name: .long, help: ArgumentHelp("A Resolver URL that names public nodes.", valueName: "url"))
        var resolver: String?
        @Option(
            name: .long, help: ArgumentHelp("A kasia-indexer (or a Tandem server's /kasia) base URL.", valueName: "url")
        )
        var indexer: String?
        @OptionGroup var profile: ProfileOptions
        @Flag(name: .long, help: "Print the node's status as JSON.") var json = false

        func validate() throws {
            guard !nodes.isEmpty || resolver != nil else {
                throw CLIError("give at least one --node URL or a --resolver URL")
            }
        }

        func run() async throws {
            let nodeURLs = try nodes.map { try url($0, option: "--node", schemes: ["ws", "wss"]) }
            let resolverURL = try resolver.map { try url($0, option: "--resolver", schemes: ["http", "https"]) }
            let indexerURL = try indexer.map { try url($0, option: "--indexer", schemes: ["http", "https"]) }
            // A reconnect keeps the limits `tandem wallet limits` set.
            let settings = KaspaNetworkSettings(
                network: network, nodes: nodeURLs, resolver: resolverURL, indexer: indexerURL,
                feeLimits: (try? profile.value.kaspaNetworkSettings())?.feeLimits)
            let client = KaspaNodeClient(
                configuration: KaspaNodeConfiguration(
                    endpoints: settings.endpoints, network: network, callTimeout: .seconds(10)),
                transport: KaspaNodeAccess.transport, resolve: KaspaNodeAccess.resolver(network: network))
            let snapshot: ServerInfoSnapshot
            do { snapshot = try await client.connect() } catch { throw CLIError(error.description) }
            await client.disconnect()
            let profile = try profile.value
            do { try profile.saveKaspaNetworkSettings(settings) } catch { throw CLIError(error.description) }
            let address = (try? profile.walletKey()).map {
                KaspaAddress(publicKey: $0.xOnlyPublicKey, network: network.network)
            }
            let output = KaspaStatusOutput(settings: settings, snapshot: snapshot, address: address)
            if json { try CommandIO.printJSON(output) } else { CommandIO.write("connected: " + output.line) }
        }

        private func url(_ text: String, option: String, schemes: Set<String>) throws -> URL {
            guard let url = URL(string: text), let scheme = url.scheme, schemes.contains(scheme), url.host != nil else {
                throw CLIError(
                    "\(option) \(text): expected a \(schemes.sorted().map { "\($0)://" }.joined(separator: " or ")) URL"
                )
            }
            return url
        }
    }

    /// `tandem kaspa status`: which node serves the profile now, and its state.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Show the profile's Kaspa network and the node serving it.")

        @OptionGroup var profile: ProfileOptions
        @Flag(name: .long, help: "Print {\"network\",\"node\",\"synced\",\"virtualDaaScore\",…} as JSON.")
        var json = false

        func run() async throws {
            let profile = try profile.value
            let wallet = try KaspaNodeAccess.wallet(profile)
            // A status reports an unsynced node or one without the index instead of refusing it.
            let client = KaspaNodeClient(
                configuration: KaspaNodeConfiguration(
                    endpoints: wallet.settings.endpoints, network: wallet.settings.network, requiresUTXOIndex: false,
                    requiresSynced: false),
                transport: KaspaNodeAccess.transport,
                resolve: KaspaNodeAccess.resolver(network: wallet.settings.network))
            let snapshot: ServerInfoSnapshot
            do { snapshot = try await client.connect() } catch { throw CLIError(error.description) }
            await client.disconnect()
            let output = KaspaStatusOutput(settings: wallet.settings, snapshot: snapshot, address: wallet.address)
            if json { try CommandIO.printJSON(output) } else { CommandIO.write(output.line) }
        }
    }

    /// `tandem kaspa disconnect`: back to the relay.
    struct Disconnect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "disconnect", abstract: "Return the profile to the Tandem relay (forget its Kaspa nodes).")

        @OptionGroup var profile: ProfileOptions
        @Flag(name: .long, help: "Print {\"transport\":\"relay\"} as JSON.") var json = false

        func run() throws {
            let profile = try profile.value
            do { try profile.removeKaspaNetworkSettings() } catch { throw CLIError(error.description) }
            if json {
                try CommandIO.printJSON(["transport": "relay"])
            } else {
                CommandIO.write("the profile uses the relay again\n")
            }
        }
    }
}
