import BenchSupport
import ChatHistory
import ChatTimeline
import Contacts
import Foundation
import KaspaCrypto
import MicroBenchmarks
import RedoProtocol
import TandemAccounts
import TandemNIOTransport
import TandemProfile
import TandemSync
import TaskStore

/// One run of `tandem-bench sync` against a server already listening at `server` (issue 12
/// "Figures"): raw Ed25519 verifies of the nodes' bodies as the baseline, then the same nodes
/// pushed and accepted, a new device's pull + validate + replay, no-op syncs, and a contacts
/// push and full pull. Each run signs up an account of its own, so runs can share a database.
struct SyncBenchRun {
    /// Seconds of each measured step of one run.
    struct Figures {
        var verify = 0.0
        /// Process CPU seconds of the same verifies (one thread; the server is idle meanwhile): the
        /// per-core figure's baseline, in CPU time like the push it is held against (issue 49
        /// item 6), so a busy or stolen core does not lengthen the baseline alone.
        var verifyCPU = 0.0
        var push = 0.0
        /// Process CPU seconds (client and in-process server, every thread) during `push`: the
        /// per-core figure of issue 29 divides the one-core verify time by it.
        var pushCPU = 0.0
        /// The server process's CPU seconds (every thread, from `/proc`) during `push`, when the
        /// server runs apart (`--server-process`): what accepting the nodes cost the server
        /// alone, with the client's reads, requests and marks left out. Nil in process.
        var serverPushCPU: Double?
        var pull = 0.0
        /// Process CPU seconds (client and in-process server, every thread) during `pull`: with
        /// the wall time, how much of the two cores the pull kept busy.
        var pullCPU = 0.0
        var idleMedian = 0.0
        var contactsPush = 0.0
        var contactsPull = 0.0
        /// Issue 48 item 1: one device pushes its chat history, a new device pulls and merges it.
        var chatPush = 0.0
        var chatPull = 0.0
        /// A chat history sync with nothing new, on the device that holds the whole history.
        var chatIdle = 0.0
    }

    let server: URL
    let directory: URL
    let nodes: Int
    let contacts: Int
    /// Chat messages in the writer's history (issue 48 item 1).
    var chatMessages = 10_000
    let samples: Int
    /// Print each contacts step's CLOCK_MONOTONIC window, so a profile can be cut to it
    /// (`perf record -k CLOCK_MONOTONIC`, then `perf report --time START,END`).
    let windows: Bool
    let username = "bench_\(UInt32.random(in: 0...UInt32.max))"
    /// The transport the `tandem` CLI injects, so the figures are the CLI's path.
    let transport: any HTTPTransport = HTTPClientTransport()
    /// The server process's CPU seconds so far, when it runs apart from this one.
    var serverCPUSeconds: (() throws -> Double)?

    private func device(_ name: String, signUp: Bool, wallet: PrivateKey) async throws -> Profile {
        let profile = Profile(directory: directory.appendingPathComponent(name))
        _ = try profile.importWalletKey(wallet)
        let client = AccountClient(server: server, profile: profile, transport: transport)
        if signUp {
            _ = try await client.signUp(
                username: username, email: "\(username)@example.com", name: "Bench", password: "bench password 1")
        } else {
            _ = try await client.signIn(username: username, password: "bench password 1")
        }
        return profile
    }

    func measure() async throws -> Figures {
        var figures = Figures()
        let clock = ContinuousClock()
        let wallet = PrivateKey.generate()
        let writer = try await device("writer", signUp: true, wallet: wallet)
        let editor = try writer.openTasks()
        let generated = try SignedNodes.tasks(count: nodes, identity: editor.identity)

        // Baseline: raw Ed25519 verification of the same nodes' bodies.
        var bodies: [(SignatureHex, [UInt8])] = []
        for node in generated {
            guard let signature = node.signature else { throw CLIError("bench: unsigned node") }
            bodies.append((signature, try ContentAddress.canonicalBody(of: node.json).bytes))
        }
        let key = editor.identity.key.publicKey
        let verifyStart = clock.now
        let verifyCPUStart = processCPUSeconds()
        var verified = 0
        for (signature, body) in bodies where SigningKey.isValidSignature(signature, for: body, publicKey: key) {
            verified += 1
        }
        figures.verifyCPU = processCPUSeconds() - verifyCPUStart
        figures.verify = (clock.now - verifyStart).inSeconds
        guard verified == bodies.count else { throw CLIError("bench: a signature did not verify") }

        // The key is bound by a first sync of the empty log, so the timed push is nodes alone.
        var binder = try writer.taskSync(server: server, transport: transport)
        binder.retry = .none
        _ = try await binder.run()
        try editor.log.append(generated)
        let pushStart = clock.now
        let pushCPUStart = processCPUSeconds()
        let serverCPUStart = try serverCPUSeconds?()
        let nodesWindow = Self.monotonicSeconds()
        let pushed = try await binder.run()
        figures.push = (clock.now - pushStart).inSeconds
        let clientCPU = processCPUSeconds() - pushCPUStart
        if let serverCPUSeconds, let serverCPUStart {
            let serverCPU = try serverCPUSeconds() - serverCPUStart
            figures.serverPushCPU = serverCPU
            figures.pushCPU = clientCPU + serverCPU
        } else {
            figures.pushCPU = clientCPU
        }
        mark("nodes-push", from: nodesWindow)
        guard pushed.pushed == nodes else { throw CLIError("bench: pushed \(pushed.pushed) of \(nodes)") }

        // A new device: its first sync (binds its key, pulls, validates, stores) + the replayed state.
        let reader = try await device("reader", signUp: false, wallet: wallet)
        let readerSync = try reader.taskSync(server: server, transport: transport)
        let pullStart = clock.now
        let pullCPUStart = processCPUSeconds()
        let pulled = try await readerSync.run()
        let state = try readerSync.editor.state()
        figures.pull = (clock.now - pullStart).inSeconds
        figures.pullCPU = processCPUSeconds() - pullCPUStart
        guard pulled.pulled == nodes, !state.tasks.isEmpty else { throw CLIError("bench: pulled \(pulled.pulled)") }

        // A sync with nothing new.
        var idle: [Double] = []
        for _ in 0..<samples {
            let start = clock.now
            _ = try await readerSync.run()
            idle.append((clock.now - start).inSeconds)
        }
        figures.idleMedian = median(idle)

        // Contacts: one device adds and pushes, a new device pulls and merges.
        let contactsWriter = try writer.contactsSync(server: server, transport: transport)
        let walletAddress = ContactAddress(KaspaAddress(publicKey: wallet.xOnlyPublicKey))
        let book = try writer.openContacts()
        for _ in 0..<contacts {
            let peer = ContactAddress(KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey))
            _ = try book.add(peer, wallet: walletAddress, alias: "peer")
        }
        let contactsPushStart = clock.now
        let pushWindow = Self.monotonicSeconds()
        _ = try await contactsWriter.run()
        figures.contactsPush = (clock.now - contactsPushStart).inSeconds
        mark("contacts-push", from: pushWindow)
        let contactsReader = try reader.contactsSync(server: server, transport: transport)
        let contactsPullStart = clock.now
        let pullWindow = Self.monotonicSeconds()
        let contactsPulled = try await contactsReader.run()
        figures.contactsPull = (clock.now - contactsPullStart).inSeconds
        mark("contacts-pull", from: pullWindow)
        guard contactsPulled.pulled == contacts else {
            throw CLIError("bench: pulled \(contactsPulled.pulled) contacts")
        }
        try await measureChat(writer: writer, reader: reader, into: &figures)
        return figures
    }

    /// Chat history (issue 48 item 1): the writer's messages in 100 conversations, sent and
    /// confirmed, pushed; then a new device's pull and merge of every record.
    private func measureChat(writer: Profile, reader: Profile, into figures: inout Figures) async throws {
        let clock = ContinuousClock()
        let history = try writer.openChatHistory()
        let peers = (0..<100).map { _ in KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey).description }
        var rows: [StoredMessage] = []
        rows.reserveCapacity(chatMessages)
        for index in 0..<chatMessages {
            let time = UInt64(1_800_000_000_000 + index * 1_000)
            rows.append(
                StoredMessage(
                    id: MessageID(UUID()), conversation: ConversationID(peers[index % peers.count]),
                    txID: TxID(String(format: "%064x", index)), blockTime: time, timestamp: Int64(time),
                    status: index % 2 == 0 ? .confirmed : .sent, direction: index % 3 == 0 ? .incoming : .outgoing,
                    kind: .text, body: Data("message \(index): a line of an ordinary length, with a few words".utf8)))
        }
        try history.save(contentsOf: rows)
        let writerSync = try writer.chatHistorySync(server: server, transport: transport)
        let pushStart = clock.now
        let pushed = try await writerSync.run()
        figures.chatPush = (clock.now - pushStart).inSeconds
        guard pushed.pushed == chatMessages else { throw CLIError("bench: pushed \(pushed.pushed) chat records") }
        let readerSync = try reader.chatHistorySync(server: server, transport: transport)
        let pullStart = clock.now
        let window = Self.monotonicSeconds()
        let pulled = try await readerSync.run()
        figures.chatPull = (clock.now - pullStart).inSeconds
        mark("chat-pull", from: window)
        guard pulled.pulled == chatMessages, pulled.changed == chatMessages, pulled.pushed == 0 else {
            throw CLIError("bench: chat pull \(pulled)")
        }
        var idle: [Double] = []
        for _ in 0..<samples {
            let start = clock.now
            let again = try await readerSync.run()
            idle.append((clock.now - start).inSeconds)
            guard again.pulled == 0, again.pushed == 0 else { throw CLIError("bench: idle chat sync \(again)") }
        }
        figures.chatIdle = median(idle)
    }

    /// With `--windows`, prints `window NAME START,END` in CLOCK_MONOTONIC seconds (perf's
    /// `--time` form).
    private func mark(_ name: String, from start: Double) {
        guard windows else { return }
        CommandIO.write(
            "window \(name) \(String(format: "%.6f", start)),\(String(format: "%.6f", Self.monotonicSeconds()))\n")
    }

    /// CLOCK_MONOTONIC in seconds, the clock `perf record -k CLOCK_MONOTONIC` stamps samples with.
    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// The middle value (the upper middle for an even count); 0 for none.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// CPU seconds this process has used so far, all threads.
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

extension Duration {
    var inSeconds: Double { nanoseconds / 1e9 }
}
