import ChatHistory
import ChatTimeline
import Foundation
import KaspaCrypto
import KaspaNode
import KaspaSimNode
import TandemAccounts
import TandemMessaging
import TandemNIOTransport
import TandemProfile
import TandemWallet
import TestSupport
import Testing

/// Two Tandem profiles chatting over the simulated node (issue 24 item 3 and "Tests"): every
/// payload a transaction from the profile's wallet, every row read back from the chain.
@Suite("Chat over the simulated Kaspa network (issue 24)", .timeLimit(.minutes(2)))
struct KaspaChatTests {
    /// A messenger for `profile` (holding `key`) on the network's node, over the Kaspa transport.
    static func messenger(_ profile: Profile, _ network: SimulatedNetwork) throws -> Messenger {
        let settings = KaspaNetworkSettings(network: .testnet10, nodes: network.urls)
        try profile.saveKaspaNetworkSettings(settings)
        let transport = try KaspaMessageTransport(
            profile: profile, settings: settings, webSocket: WebSocketClientTransport(),
            configuration: network.configuration(),
            retry: WalletRetryPolicy(mempoolFullDelays: [.milliseconds(10)]))
        return try Messenger(profile: profile, transport: transport)
    }

    /// A second profile holding `keyHex`, in `directory`.
    static func profile(in directory: TemporaryDirectory, keyHex: String) throws -> Profile {
        let profile = Profile(directory: directory.url)
        try profile.importWalletKey(try PrivateKey(hex: keyHex))
        return profile
    }

    /// Runs `body` with Alice (the network's profile) and Bob (a second profile), 10 KAS each, on
    /// a node with `ports` ports (each a node of the profiles' lists).
    static func withAliceAndBob(
        ports: Int = 1, _ body: (SimulatedNetwork, Messenger, Messenger) async throws -> Void
    ) async throws {
        try await SimulatedNetwork.with(ports: ports) { network in
            let bobDirectory = try TemporaryDirectory()
            defer { bobDirectory.remove() }
            let alice = try messenger(network.profile, network)
            let bob = try messenger(profile(in: bobDirectory, keyHex: SimulatedNetwork.peerKeyHex), network)
            try await network.node.fund(alice.address, amount: 1_000_000_000)
            try await network.node.fund(bob.address, amount: 1_000_000_000)
            try await body(network, alice, bob)
        }
    }

    static func texts(_ page: MessagePage, _ direction: MessageDirection) -> [String] {
        page.rows.filter { $0.kind == .text && $0.direction == direction }.map {
            String(decoding: $0.body ?? Data(), as: UTF8.self)
        }
    }

    @Test("a handshake reaches the peer, and messages both ways arrive in history exactly once")
    func twoProfilesChat() async throws {
        try await Self.withAliceAndBob { network, alice, bob in

            // Given Alice's handshake, accepted in a block
            try await alice.startConversation(with: bob.address)
            #expect(await network.node.read { $0.balance(of: bob.address) } == 1_000_000_000)
            await network.node.mine()
            #expect(await network.node.read { $0.balance(of: bob.address) } == 1_020_000_000)
            // When Bob syncs, he sees it
            let handshake = try await bob.sync()
            #expect(handshake.map(\.kind) == [.handshake])
            #expect(handshake.first?.sender == alice.address)

            // Bob answers; Alice reads it
            let reply = try await bob.send("hello alice", to: alice.address)
            #expect(reply.status == .sent)
            await network.node.mine()
            let toAlice = try await alice.sync()
            #expect(toAlice.filter { $0.kind == .text }.map(\.text) == ["hello alice"])

            // Alice writes back; Bob reads it
            let sent = try await alice.send("hi bob", to: bob.address)
            #expect(sent.status == .sent)
            await network.node.mine()
            let toBob = try await bob.sync()
            #expect(toBob.filter { $0.kind == .text }.map(\.text) == ["hi bob"])

            // Then nothing arrives twice, and each side's sent message is confirmed on chain
            #expect(try await alice.sync().isEmpty)
            #expect(try await bob.sync().isEmpty)
            let bobHistory = try await bob.history(with: alice.address)
            #expect(Self.texts(bobHistory, .incoming) == ["hi bob"])
            #expect(Self.texts(bobHistory, .outgoing) == ["hello alice"])
            let aliceHistory = try await alice.history(with: bob.address)
            #expect(Self.texts(aliceHistory, .incoming) == ["hello alice"])
            #expect(Self.texts(aliceHistory, .outgoing) == ["hi bob"])
            #expect(aliceHistory.rows.first { $0.id == sent.id }?.status == .confirmed)
            #expect(bobHistory.rows.first { $0.id == reply.id }?.status == .confirmed)
        }
    }

    @Test("listen delivers each message as a block accepts it; a dropped connection loses none and repeats none")
    func liveAcrossADroppedConnection() async throws {
        try await Self.withAliceAndBob { network, alice, bob in
            try await alice.startConversation(with: bob.address)
            await network.node.mine()

            // Given Bob listening (his first sync applies the handshake)
            var incoming = bob.listen().makeAsyncIterator()
            try await alice.send("one", to: bob.address)
            await network.node.mine()
            #expect(try await Self.nextText(&incoming) == "one")

            // When every connection to the node drops, and messages are accepted meanwhile
            await network.servers[0].switches.dropConnections()
            try await alice.send("two", to: bob.address)
            try await alice.send("three", to: bob.address)
            await network.node.mine()
            #expect(try await Self.nextText(&incoming) == "two")
            #expect(try await Self.nextText(&incoming) == "three")
            try await alice.send("four", to: bob.address)
            await network.node.mine()
            #expect(try await Self.nextText(&incoming) == "four")

            // Then history holds each once ("two" and "three" share a block, hence a block time, and
            // rows of one block time are ordered by their ids: compared as a set of texts)
            let texts = Self.texts(try await bob.history(with: alice.address), .incoming)
            #expect(texts.count == 4)
            #expect(texts.sorted() == ["four", "one", "three", "two"])
        }
    }

    /// The text of the next text message `listen` yields.
    static func nextText(_ incoming: inout AsyncThrowingStream<IncomingMessage, any Error>.Iterator) async throws
        -> String?
    {
        while let message = try await incoming.next() {
            if message.kind == .text { return message.text }
        }
        return nil
    }

    /// The next `UtxosChanged` subscription `server` accepts that `isWanted`.
    static func nextSubscription(
        _ subscriptions: inout AsyncStream<[KaspaAddress]>.Iterator, where isWanted: ([KaspaAddress]) -> Bool
    ) async -> [KaspaAddress]? {
        while let addresses = await subscriptions.next() {
            if isWanted(addresses) { return addresses }
        }
        return nil
    }

    @Test("a contact with real-time updates off is not subscribed, not followed live, and read on sync")
    func quietContactIsReadOnSync() async throws {
        try await Self.withAliceAndBob { network, alice, bob in
            try await alice.startConversation(with: bob.address)
            await network.node.mine()
            var subscriptions = network.servers[0].switches.utxoSubscriptions.makeAsyncIterator()

            // Given Bob listening: his session subscribes to his address and Alice's
            var incoming = bob.listen(quietPeriod: .milliseconds(20), maxWait: .milliseconds(200)).makeAsyncIterator()
            let watched = await Self.nextSubscription(&subscriptions) { $0.contains(alice.address) }
            #expect(watched.map(Set.init) == [alice.address, bob.address])

            // When Bob turns real-time updates off for Alice, his session is reopened without her
            try await bob.setRealtimeUpdates(false, for: alice.address)
            let reopened = await Self.nextSubscription(&subscriptions) {
                $0.contains(bob.address) && !$0.contains(alice.address)
            }
            #expect(reopened == [bob.address])

            // Then her message is not delivered live: her next handshake (a payment to Bob's
            // address, in the same block) is the first thing listen yields
            try await alice.send("read on sync", to: bob.address)
            try await alice.startConversation(with: bob.address)
            await network.node.mine()
            let first = try await incoming.next()
            #expect(first?.kind == .handshake)
            #expect(Self.texts(try await bob.history(with: alice.address), .incoming).isEmpty)

            // And a sync reads it, once
            #expect(try await bob.sync().filter { $0.kind == .text }.map(\.text) == ["read on sync"])
            #expect(Self.texts(try await bob.history(with: alice.address), .incoming) == ["read on sync"])
        }
    }

    @Test("a node that goes away mid-conversation: listen moves to the other node, losing and repeating nothing")
    func liveAcrossANodeFailover() async throws {
        try await Self.withAliceAndBob(ports: 2) { network, alice, bob in
            try await alice.startConversation(with: bob.address)
            await network.node.mine()
            var incoming = bob.listen().makeAsyncIterator()
            try await alice.send("before", to: bob.address)
            await network.node.mine()
            #expect(try await Self.nextText(&incoming) == "before")

            // When the first node refuses connections and drops every one it has
            await network.servers[0].switches.setRefusingConnections(true)
            await network.servers[0].switches.dropConnections()
            try await alice.send("during", to: bob.address)
            await network.node.mine()
            try await alice.send("after", to: bob.address)
            await network.node.mine()

            // Then both arrive through the second node, each once
            #expect(try await Self.nextText(&incoming) == "during")
            #expect(try await Self.nextText(&incoming) == "after")
            let texts = Self.texts(try await bob.history(with: alice.address), .incoming)
            #expect(texts.sorted() == ["after", "before", "during"])
        }
    }

    @Test("a reorg returns our confirmed message to sent until a block accepts it again; nothing arrives twice")
    func reorgUnconfirmsAndConfirmsAgain() async throws {
        try await Self.withAliceAndBob { network, alice, bob in
            try await alice.startConversation(with: bob.address)
            await network.node.mine()
            try await bob.sync()
            let sent = try await alice.send("across a reorg", to: bob.address)
            func status() async throws -> DeliveryStatus? {
                try await alice.history(with: bob.address).rows.first { $0.id == sent.id }?.status
            }
            await network.node.mine()
            try await alice.sync()
            #expect(try await status() == .confirmed)
            #expect(try await bob.sync().map(\.text) == ["across a reorg"])

            // When the chain block that accepted it is removed (its transactions back in the mempool)
            _ = try await network.node.reorg(depth: 1)
            try await alice.sync()
            try await bob.sync()
            #expect(try await status() == .sent)

            // Then the block that accepts it again confirms it, and neither side has it twice
            await network.node.mine()
            #expect(try await alice.sync().isEmpty)
            #expect(try await bob.sync().isEmpty)
            #expect(try await status() == .confirmed)
            #expect(Self.texts(try await alice.history(with: bob.address), .outgoing) == ["across a reorg"])
            #expect(Self.texts(try await bob.history(with: alice.address), .incoming) == ["across a reorg"])
        }
    }

    @Test("a fresh profile of the same key restores contacts and history from the chain walk (no indexer)")
    func restoreFromTheChain() async throws {
        try await SimulatedNetwork.with { network in
            let bobDirectory = try TemporaryDirectory()
            let restoredDirectory = try TemporaryDirectory()
            defer {
                bobDirectory.remove()
                restoredDirectory.remove()
            }
            let alice = try Self.messenger(network.profile, network)
            let bob = try Self.messenger(
                Self.profile(in: bobDirectory, keyHex: SimulatedNetwork.peerKeyHex), network)
            try await network.node.fund(alice.address, amount: 1_000_000_000)
            try await network.node.fund(bob.address, amount: 1_000_000_000)
            try await alice.startConversation(with: bob.address)
            await network.node.mine()
            try await bob.sync()
            try await bob.send("from bob", to: alice.address)
            try await alice.send("from alice", to: bob.address)
            await network.node.mine()

            // When a new device of Bob's key restores
            let restored = try Self.messenger(
                Self.profile(in: restoredDirectory, keyHex: SimulatedNetwork.peerKeyHex), network)
            try await restored.restore()

            // Then it has the contact, Alice's message readable, and Bob's own as an unreadable sent row
            #expect(
                try await restored.conversations().map(\.contact.address.description) == [alice.address.description])
            let history = try await restored.history(with: alice.address)
            #expect(Self.texts(history, .incoming) == ["from alice"])
            #expect(history.rows.filter { $0.kind == .text && $0.direction == .outgoing }.count == 1)
            #expect(try await restored.restore().filter { $0.kind == .text }.isEmpty)
        }
    }

    @Test("a new device restores from an indexer: its chain walk starts at the sink, so history is the indexer's")
    func restoreFromAnIndexer() async throws {
        let directories = try (
            alice: TemporaryDirectory(), bob: TemporaryDirectory(), restored: TemporaryDirectory(),
            blind: TemporaryDirectory()
        )
        defer {
            directories.alice.remove()
            directories.bob.remove()
            directories.restored.remove()
            directories.blind.remove()
        }
        let key = try PrivateKey(hex: SimulatedNetwork.keyHex)
        let aliceProfile = try Self.profile(in: directories.alice, keyHex: SimulatedNetwork.keyHex)
        let witness = RestoreWitness()
        let node = SimulatedKaspaNode()
        try await node.serve(frameObserver: witness.frameObserver) { servers in
            // Given Alice and Bob (no indexer: they read the chain) chatting both ways
            let network = SimulatedNetwork(node: node, servers: servers, profile: aliceProfile, key: key)
            let alice = try Self.messenger(aliceProfile, network)
            let bob = try Self.messenger(
                Self.profile(in: directories.bob, keyHex: SimulatedNetwork.peerKeyHex), network)
            try await node.fund(alice.address, amount: 1_000_000_000)
            try await node.fund(bob.address, amount: 1_000_000_000)
            try await alice.startConversation(with: bob.address)
            await node.mine()
            try await bob.sync()
            try await bob.send("from bob", to: alice.address)
            try await alice.send("from alice", to: bob.address)
            await node.mine()
            try await alice.send("again from alice", to: bob.address)
            await node.mine()
            // and blocks after the chat, so the sink is newer than all of it
            await node.mine(blocks: 5)
            let sink = await node.read { $0.tip.hash }
            let genesis = await node.read { $0.genesis.hash }

            // When a new device of Bob's key, naming the node's indexer, restores
            let restored = try Self.messenger(
                Self.profile(in: directories.restored, keyHex: SimulatedNetwork.peerKeyHex), network,
                indexer: servers[0], http: witness.transport(wrapping: URLSessionTransport()))
            let walksBefore = witness.walks.count
            let delivered = try await restored.restore()

            // Then it has the contact, Alice's messages readable, and Bob's own as one unreadable sent row
            #expect(
                try await restored.conversations().map(\.contact.address.description) == [alice.address.description])
            let history = try await restored.history(with: alice.address)
            #expect(Self.texts(history, .incoming) == ["from alice", "again from alice"])
            #expect(history.rows.filter { $0.kind == .text && $0.direction == .outgoing }.count == 1)
            #expect(delivered.filter { $0.kind == .text }.map(\.text) == ["from alice", "again from alice"])

            // And none of it came from the chain: the walk started at the sink, past every chat
            // block, and the indexer's routes (at its root, as K-Kluster's serves them) were read
            let walks = Array(witness.walks.dropFirst(walksBefore))
            #expect(walks.first == sink)
            #expect(!walks.contains(genesis))
            let routes = Set(witness.paths)
            #expect(
                routes == [
                    "/self-stash/by-owner", "/handshakes/by-receiver", "/handshakes/by-sender",
                    "/contextual-messages/by-sender", "/payments/by-receiver",
                ])

            // And a second restore brings nothing twice
            #expect(try await restored.restore().filter { $0.kind == .text }.isEmpty)
            let again = try await restored.history(with: alice.address)
            #expect(Self.texts(again, .incoming) == ["from alice", "again from alice"])
            #expect(again.rows.count == history.rows.count)

            // And the same restore on the same node, naming an indexer of another (empty) chain,
            // finds nothing: the chain walk alone has none of the history
            try await SimulatedKaspaNode().serve { empty in
                let blind = try Self.messenger(
                    Self.profile(in: directories.blind, keyHex: SimulatedNetwork.peerKeyHex), network,
                    indexer: empty[0], http: URLSessionTransport())
                #expect(try await blind.restore().isEmpty)
                #expect(try await blind.conversations().isEmpty)
            }
        }
    }

    /// A messenger for `profile` on the network's node whose history comes from the indexer
    /// routes of `indexer` (a port of some simulated node), read through `http`.
    static func messenger(
        _ profile: Profile, _ network: SimulatedNetwork, indexer: RunningNodeServer, http: any HTTPTransport
    ) throws -> Messenger {
        let settings = KaspaNetworkSettings(
            network: .testnet10, nodes: network.urls, indexer: URL(string: indexer.indexerURL))
        try profile.saveKaspaNetworkSettings(settings)
        return try Messenger(
            profile: profile,
            transport: KaspaMessageTransport(
                profile: profile, settings: settings, webSocket: WebSocketClientTransport(), http: http,
                configuration: network.configuration()))
    }
}
