public import Foundation
public import KaspaNode
public import KaspaRPC
public import TandemProfile

/// Which Kaspa network a profile is on and where it reaches it (issue 24 item 4: what
/// `tandem kaspa connect` saves): the network id, node URLs and/or a Resolver, and the
/// kasia-indexer that history is read from. Kept in ``Profile/File/kaspaNetwork``; without the
/// file the profile talks through a Tandem relay.
public struct KaspaNetworkSettings: Sendable, Equatable, Codable {
    public var network: KaspaNetworkID
    public var nodes: [URL]
    public var resolver: URL?
    /// A kasia-indexer: K-Kluster's, or a Tandem server's `/kasia` routes.
    public var indexer: URL?
    /// What a send may pay at most (`tandem wallet limits`); nil: ``WalletFeeLimits``' defaults.
    public var feeLimits: WalletFeeLimits?

    public init(
        network: KaspaNetworkID, nodes: [URL], resolver: URL? = nil, indexer: URL? = nil,
        feeLimits: WalletFeeLimits? = nil
    ) {
        self.network = network
        self.nodes = nodes
        self.resolver = resolver
        self.indexer = indexer
        self.feeLimits = feeLimits
    }

    /// The nodes in the order they are tried: the listed ones, then the Resolver's pick.
    public var endpoints: [NodeEndpoint] { nodes.map(NodeEndpoint.node) + (resolver.map { [.resolver($0)] } ?? []) }

    private enum CodingKeys: String, CodingKey { case network, nodes, resolver, indexer, feeLimits }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(network, forKey: .network)
        try container.encode(nodes, forKey: .nodes)
        try container.encode(resolver, forKey: .resolver)
        try container.encode(indexer, forKey: .indexer)
        try container.encodeIfPresent(feeLimits, forKey: .feeLimits)
    }
}

extension Profile {
    /// The profile's Kaspa network settings, or nil when it uses a relay.
    public func kaspaNetworkSettings() throws(ProfileError) -> KaspaNetworkSettings? {
        try readJSON(KaspaNetworkSettings.self, from: .kaspaNetwork)
    }

    /// Saves `settings` atomically: the profile is on the Kaspa network from now on.
    public func saveKaspaNetworkSettings(_ settings: KaspaNetworkSettings) throws(ProfileError) {
        try writeJSON(settings, to: .kaspaNetwork, pretty: true)
    }

    /// Returns the profile to the relay. Pending transactions stay on file for a later connect.
    public func removeKaspaNetworkSettings() throws(ProfileError) {
        let url = url(.kaspaNetwork)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do { try FileManager.default.removeItem(at: url) } catch {
            throw .fileSystem(path: url.path, reason: String(describing: error))
        }
    }
}
