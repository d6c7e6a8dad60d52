import BenchSupport
import ChatHistory
import ChatTimeline
import Foundation
import KasiaProtocol
import KaspaCrypto
import KaspaNode
import KaspaRPC
import KaspaSimNode
import MicroBenchmarks
import TandemMessaging
import TandemNIOTransport
import TandemProfile
import TandemWallet

/// Issue 24's chat figure, "node notification → message in history p99 < 50 ms with 1,000
/// watched contacts", on a simulated node in this process.
///
/// The receiver is a Kaspa-mode profile whose routing table and contacts hold `conversations`
/// conversations (``ChatNodeFixture``, and the sender's, begun by a real handshake on chain), with
/// `Messenger.listen()` running: its live session subscribes `UtxosChanged` for its own address
/// and every contact's. The sender, a second profile on the same node, sends one message at a
/// time; each is accepted by a block mined through `SimulatedKaspaNode.mine()`, and the bench
/// waits until it comes out of the receiver's `listen()` — its row is stored by then — before the
/// next is sent. Messages alternate between two pacings (``Pacing``): the block mined as soon as
/// the message is submitted, or only once the receiver has finished with the previous message.
///
/// "Node notification" is the instant the node has the `UtxosChanged` frame for the receiver's
/// live connection ready to write — the one carrying the sender's change of that block — stamped
/// through the node's ``NodeFrameObserver`` on this process's `ContinuousClock`. The node
/// notifies on acceptance, not on mempool entry (kaspa-node.md §8), so this is the first moment a
/// node tells a client anything about the message. The same log stamps every request the live
/// connection makes until the message is out, which is where the breakdown comes from.
enum ChatNodeBenchmarks {
    struct Configuration {
        /// Conversations in the receiver's routing table and contacts, the sender's included.
        var conversations = 1000
        /// Messages measured in each pacing.
        var messages = 200
        /// Messages sent and received before the measured ones (not counted).
        var warmUp = 5
        /// History rows in each generated conversation.
        var historyRows = 10
        /// Where the two profiles are made; nil: the system's temporary directory.
        var directory: URL?
    }

    /// When the block that accepts a message is mined.
    enum Pacing: String, CaseIterable, Encodable {
        /// As soon as the message is submitted (and a baseline sample taken), which is a few
        /// milliseconds after the previous message came out of `listen()`: the receiver may
        /// still be busy with that one, as when messages come in close together.
        case backToBack
        /// Once the receiver's `Messenger` is idle: a call to the actor has returned after the
        /// previous message's work.
        case idleReceiver
    }

    /// One measured message, on this process's monotonic clock.
    struct Delivery {
        var txID: String
        var pacing: Pacing
        /// Just before `node.mine()` made the block that accepts it.
        var mining: ContinuousClock.Instant
        /// It came out of the receiver's `listen()`.
        var delivered: ContinuousClock.Instant
    }

    static func run(_ configuration: Configuration) async throws -> ChatNodeReport {
        let directory = (configuration.directory ?? FileManager.default.temporaryDirectory).appendingPathComponent(
            "tandem-chat-node-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let receiverProfile = Profile(directory: directory.appendingPathComponent("receiver"))
        let senderProfile = Profile(directory: directory.appendingPathComponent("sender"))
        // Fixed keys: the node is fresh each run.
        let receiverKey = try receiverProfile.importWalletKey(PrivateKey(hex: String(repeating: "25", count: 32)))
        _ = try senderProfile.importWalletKey(PrivateKey(hex: String(repeating: "26", count: 32)))
        let frames = NodeFrameLog()
        let node = SimulatedKaspaNode()
        return try await node.serve(frameObserver: frames.observer) { servers in
            let settings = KaspaNetworkSettings(network: .testnet10, nodes: servers.compactMap { URL(string: $0.url) })
            let fixture = try ChatNodeFixture.populate(
                receiverProfile, key: receiverKey, network: settings.network.network,
                conversations: configuration.conversations - 1, rows: configuration.historyRows)
            let receiver = try messenger(receiverProfile, settings)
            let sender = try messenger(senderProfile, settings)
            try await node.fund(sender.address, amount: 1_000 * 100_000_000)
            // The sender's conversation is a real one: its handshake is on chain, and the
            // receiver's first sync reads it.
            let handshake = try await sender.startConversation(with: receiver.address)
            await node.mine()

            let baseline = try await Baseline(
                receiver: receiverProfile, key: receiverKey, address: receiver.address, settings: settings)
            // Transaction ids of the messages out of the receiver's listen(), when each came.
            let delivered = Arrivals<String>()
            let (deliveries, busy) = try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        for try await message in receiver.listen() { delivered.record(message.txID) }
                        delivered.end("chat-node bench: the receiver's listen() finished")
                    } catch {
                        delivered.end("chat-node bench: the receiver's listen() failed: \(error)")
                    }
                }
                defer { group.cancelAll() }
                _ = try await arrival(of: handshake.txID, in: delivered, timeout: .seconds(60))
                return try await measure(
                    configuration, node: node, sender: sender, receiver: receiver, delivered: delivered,
                    baseline: baseline, frames: frames)
            }
            await baseline.client.disconnect()
            guard delivered.repeated.isEmpty else {
                throw CLIError("chat-node bench: listen yielded \(delivered.repeated.count) transactions twice")
            }
            let log = frames.snapshot
            let paths = try Pacing.allCases.map { pacing in
                let measured = deliveries.filter { $0.pacing == pacing }
                return (pacing, try ChatNodePath(deliveries: measured, frames: log, sender: sender.address))
            }
            guard let last = paths.last?.1.lastFrames else {
                throw CLIError("chat-node bench: no message was measured")
            }
            let steps = try ChatNodeSteps.measure(
                last, receiver: receiverProfile, key: receiverKey, sender: sender.address,
                network: settings.network.network)
            return ChatNodeReport(
                configuration: configuration, fixture: fixture, paths: paths, steps: steps,
                baseline: baseline.openAndInsert, ping: baseline.pings, receiverBusy: busy)
        }
    }

    /// A messenger for `profile` over the Kaspa network, as `tandem chat` makes it after
    /// `kaspa connect` (the CLI's NIO WebSocket transport, the node client's default timing).
    private static func messenger(_ profile: Profile, _ settings: KaspaNetworkSettings) throws -> Messenger {
        try profile.saveKaspaNetworkSettings(settings)
        let transport = try KaspaMessageTransport(
            profile: profile, settings: settings, webSocket: WebSocketClientTransport())
        return try Messenger(profile: profile, transport: transport)
    }

    /// Warm-up messages, then the measured ones, one at a time, the two pacings alternating.
    /// Between a send and its block, one baseline sample of each kind runs. Answers the
    /// deliveries and, per idle-paced message, how long the receiver was still busy (seconds).
    private static func measure(
        _ configuration: Configuration, node: SimulatedKaspaNode, sender: Messenger, receiver: Messenger,
        delivered: Arrivals<String>, baseline: Baseline, frames: NodeFrameLog
    ) async throws -> ([Delivery], [Double]) {
        let clock = ContinuousClock()
        var deliveries: [Delivery] = []
        var busy: [Double] = []
        // On a loaded machine a message can reach the receiver by another way than the block's
        // UtxosChanged notification (from the mempool before its block, or by a poll that found
        // the block first): it did not take the path measured here, so it is not counted and
        // another message is sent in its place.
        var counts: [Pacing: Int] = [:]
        var index = 0
        let limit = configuration.warmUp + 4 * configuration.messages
        while Pacing.allCases.contains(where: { counts[$0, default: 0] < configuration.messages }) {
            guard index < limit else {
                throw CLIError("chat-node bench: messages kept reaching the receiver before their block")
            }
            let counted = index >= configuration.warmUp
            let pacing = Pacing.allCases[index % Pacing.allCases.count]
            index += 1
            let sent = try await sender.send(text(index - 1), to: receiver.address)
            guard let txID = sent.txID?.rawValue else {
                throw CLIError("chat-node bench: message \(index - 1) was not submitted (\(sent.status))")
            }
            try await baseline.sample(counted: counted)
            if pacing == .idleReceiver {
                // Queued on the receiver's actor behind whatever listen() still does there.
                let start = clock.now
                _ = try await receiver.history(with: sender.address, limit: 1)
                if counted { busy.append((clock.now - start).nanoseconds / 1e9) }
            }
            let mining = clock.now
            await node.mine()
            let arrived = try await arrival(of: txID, in: delivered, timeout: .seconds(30))
            let notified = !frames.snapshot.utxosChanged(of: sender.address, from: mining, to: arrived).isEmpty
            if counted, notified, counts[pacing, default: 0] < configuration.messages {
                deliveries.append(Delivery(txID: txID, pacing: pacing, mining: mining, delivered: arrived))
                counts[pacing, default: 0] += 1
            }
        }
        return (deliveries, busy)
    }

    /// When the message of `txID` came out of the receiver's `listen()`; waits for it.
    private static func arrival(of txID: String, in delivered: Arrivals<String>, timeout: Duration) async throws
        -> ContinuousClock.Instant
    {
        guard let instant = try await delivered.instant(of: txID, number: 1, timeout: timeout) else {
            throw CLIError("chat-node bench: transaction \(txID) did not reach the receiver within \(timeout)")
        }
        return instant
    }

    /// A chat line of about 100 bytes.
    private static func text(_ index: Int) -> String {
        "message \(index): " + String(repeating: "ordinary chat text ", count: 5)
    }
}

/// The same-run baseline: what any delivery must do once the message's bytes are here — open the
/// sealed text with the receiver's key and insert its row into the receiver's history (a
/// conversation of its own) — and, for scale, one `ping` round trip to the same node over the
/// same WebSocket transport (a client of its own: the live session's is not reachable).
final class Baseline {
    let client: KaspaNodeClient
    private let key: PrivateKey
    private let sealed: [UInt8]
    private let history: ChatHistoryStore
    private let conversation = ConversationID("tandem-bench baseline")
    private(set) var openAndInsert: [Double] = []
    private(set) var pings: [Double] = []

    init(receiver: Profile, key: PrivateKey, address: KaspaAddress, settings: KaspaNetworkSettings) async throws {
        self.key = key
        sealed = try KasiaCipher.seal("message 0: " + String(repeating: "ordinary chat text ", count: 5), to: address)
        history = try receiver.openChatHistory()
        client = KaspaNodeClient(
            configuration: KaspaNodeConfiguration(endpoints: settings.endpoints, network: settings.network),
            transport: WebSocketClientTransport())
        try await client.connect()
    }

    /// One open + insert and one ping; kept when `counted`.
    func sample(counted: Bool) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let text = try KasiaCipher.open(sealed, using: key)
        let time = UInt64(Date().timeIntervalSince1970 * 1000)
        try history.save(
            StoredMessage(
                id: MessageID(UUID()), conversation: conversation, txID: TxID(UUID().uuidString), blockTime: time,
                timestamp: Int64(time), status: .sent, direction: .incoming, kind: .text, body: Data(text.utf8)))
        let opened = clock.now
        _ = try await client.call(.ping, as: RPCEmpty.self)
        let pinged = clock.now
        guard counted else { return }
        openAndInsert.append((opened - start).nanoseconds / 1e9)
        pings.append((pinged - opened).nanoseconds / 1e9)
    }
}
