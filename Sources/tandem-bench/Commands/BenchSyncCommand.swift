import ArgumentParser
import CanonicalJSON
import Contacts
import Foundation
import KaspaCrypto
import Logging
import RedoProtocol
import ServiceLifecycle
import TandemClient
import TandemServer
import TaskStore

/// `tandem-bench sync`: issue 12's figures against a `tandem serve` application in this process
/// on loopback (SQLite): nodes accepted per second beside raw Ed25519 verifies per second of the
/// same nodes, a new device's pull + validate + replay, a sync with nothing new, and a full
/// contacts sync.
struct BenchSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync figures: server nodes/s vs raw Ed25519 verifies/s, 10k-node pull, no-op sync, 10k contacts.",
        discussion: "Build with -c release.")

    @Option(name: .long, help: "Nodes pushed and pulled.") var nodes = 10_000
    @Option(name: .long, help: "Contact records synced.") var contacts = 10_000
    @Option(name: .long, help: "Samples of the no-op sync (median reported).") var samples = 21

    func run() async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .critical
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tandem-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteServerStore(fileURL: directory.appendingPathComponent("tandem.sqlite"))
        let configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: directory, rateLimiting: false)
        let ports = PortCollector()
        let app = try buildApplication(configuration: configuration, store: store, logger: logger) {
            await ports.add("tandem", $0)
        }
        let group = ServiceGroup(services: [app], logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let port = await ports.wait(for: "tandem")
            guard let server = URL(string: "http://127.0.0.1:\(port)") else { throw CLIError("bench: bad port") }
            let lines = try await measure(server: server, directory: directory)
            CommandIO.write(lines.joined(separator: "\n") + "\n")
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    private func device(_ name: String, server: URL, directory: URL, signUp: Bool, wallet: PrivateKey) async throws
        -> Profile
    {
        let profile = Profile(directory: directory.appendingPathComponent(name))
        _ = try profile.importWalletKey(wallet)
        let client = AccountClient(server: server, profile: profile, transport: URLSessionTransport())
        if signUp {
            _ = try await client.signUp(
                username: "bench_user", email: "bench@example.com", name: "Bench", password: "bench password 1")
        } else {
            _ = try await client.signIn(username: "bench_user", password: "bench password 1")
        }
        return profile
    }

    private func measure(server: URL, directory: URL) async throws -> [String] {
        let clock = ContinuousClock()
        let wallet = PrivateKey.generate()
        let writer = try await device("writer", server: server, directory: directory, signUp: true, wallet: wallet)
        let editor = try writer.openTasks()
        let generated = try Self.nodes(count: nodes, identity: editor.identity)
        try editor.log.append(generated)

        // Baseline: raw Ed25519 verification of the same nodes' bodies.
        var bodies: [(SignatureHex, [UInt8])] = []
        for node in generated {
            guard let signature = node.signature else { throw CLIError("bench: unsigned node") }
            bodies.append((signature, try ContentAddress.canonicalBody(of: node.json).bytes))
        }
        let key = editor.identity.key.publicKey
        let verifyStart = clock.now
        var verified = 0
        for (signature, body) in bodies where SigningKey.isValidSignature(signature, for: body, publicKey: key) {
            verified += 1
        }
        let verifySeconds = (clock.now - verifyStart).inSeconds
        guard verified == bodies.count else { throw CLIError("bench: a signature did not verify") }

        // Push everything (the first sync also binds the key; timed from the first push on).
        var pusher = try writer.taskSync(server: server)
        pusher.retry = .none
        let pushStart = clock.now
        let pushed = try await pusher.run()
        let pushSeconds = (clock.now - pushStart).inSeconds
        guard pushed.pushed == nodes else { throw CLIError("bench: pushed \(pushed.pushed) of \(nodes)") }

        // A new device: pull + validate + replay.
        let reader = try await device("reader", server: server, directory: directory, signUp: false, wallet: wallet)
        let readerSync = try reader.taskSync(server: server)
        let pullStart = clock.now
        let pulled = try await readerSync.run()
        let state = try readerSync.editor.state()
        let pullSeconds = (clock.now - pullStart).inSeconds
        guard pulled.pulled == nodes, !state.tasks.isEmpty else { throw CLIError("bench: pulled \(pulled.pulled)") }

        // A sync with nothing new.
        var idle: [Double] = []
        for _ in 0..<samples {
            let start = clock.now
            _ = try await readerSync.run()
            idle.append((clock.now - start).inSeconds)
        }
        idle.sort()

        // Contacts: one device adds and pushes, a new device pulls and merges.
        let contactsWriter = try writer.contactsSync(server: server)
        let walletAddress = ContactAddress(KaspaAddress(publicKey: wallet.xOnlyPublicKey))
        let book = try writer.openContacts()
        for _ in 0..<contacts {
            let peer = ContactAddress(KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey))
            _ = try book.add(peer, wallet: walletAddress, alias: "peer")
        }
        let contactsPushStart = clock.now
        _ = try await contactsWriter.run()
        let contactsPushSeconds = (clock.now - contactsPushStart).inSeconds
        let contactsReader = try reader.contactsSync(server: server)
        let contactsPullStart = clock.now
        let contactsPulled = try await contactsReader.run()
        let contactsPullSeconds = (clock.now - contactsPullStart).inSeconds
        guard contactsPulled.pulled == contacts else {
            throw CLIError("bench: pulled \(contactsPulled.pulled) contacts")
        }

        let verifyRate = Double(nodes) / verifySeconds
        let acceptRate = Double(nodes) / pushSeconds
        return [
            "### Sync (issue 12): \(nodes) nodes, \(contacts) contact records, SQLite, loopback",
            "",
            "| benchmark | time | rate | ratio |",
            "|---|---:|---:|---:|",
            "| raw Ed25519 verify (baseline) | \(formatDuration(verifySeconds * 1e9)) | \(formatRate(verifyRate)) /s | 1.0× |",
            "| server accepts nodes (POST /api/redo/nodes, 500 per call, client included) | \(formatDuration(pushSeconds * 1e9)) | \(formatRate(acceptRate)) /s | \(formatRatio(acceptRate / verifyRate)) |",
            "| new device: pull + validate + replay \(nodes) nodes | \(formatDuration(pullSeconds * 1e9)) | | goal < 1 s |",
            "| sync with nothing new (median of \(samples)) | \(formatDuration(idle[idle.count / 2] * 1e9)) | | goal < 20 ms |",
            "| contacts: push \(contacts) records (first sync) | \(formatDuration(contactsPushSeconds * 1e9)) | | |",
            "| contacts: new device pulls + merges \(contacts) records | \(formatDuration(contactsPullSeconds * 1e9)) | | goal < 1 s |",
        ]
    }

    /// `count` nodes: tasks of one CREATE and three UPDATEs each, signed by `identity`.
    static func nodes(count: Int, identity: ProfileIdentity) throws -> [RedoNode] {
        var generator = SystemRandomNumberGenerator()
        var nodes: [RedoNode] = []
        nodes.reserveCapacity(count)
        guard let wall = WallTime(millisecondsSinceEpoch: 1_800_000_000_000) else { return [] }
        while nodes.count < count {
            let taskID = TaskID(randomBytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
            var parent = try NodeDraft(
                taskID: taskID, action: .create,
                payload: try NodePayload.create(TaskFieldChanges(title: "task \(nodes.count)")).jsonObject(),
                parents: [], lamport: 1, wall: wall, author: identity.author
            ).node(signedWith: identity.key)
            nodes.append(parent)
            for edit in 0..<3 where nodes.count < count {
                parent = try NodeDraft(
                    taskID: taskID, action: .update,
                    payload: try NodePayload.update(TaskFieldChanges(title: "edit \(edit)")).jsonObject(),
                    parents: [parent.id], lamport: parent.lamport + 1, wall: wall, author: identity.author
                ).node(signedWith: identity.key)
                nodes.append(parent)
            }
        }
        return nodes
    }
}

extension Duration {
    var inSeconds: Double { nanoseconds / 1e9 }
}
