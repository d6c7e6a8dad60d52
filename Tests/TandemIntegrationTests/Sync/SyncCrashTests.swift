import Foundation
import KaspaCrypto
import RedoProtocol
import TandemSync
import TandemTesting
import TaskStore
import TestSupport
import Testing

/// The server SIGKILLed in the middle of a push (issue 12 "Tests"): every node the client saw
/// acknowledged is on the server after a restart, and the next sync completes idempotently.
@Suite(.serialized) struct SyncCrashTests {
    /// Nodes per push request.
    static let batchSize = 25

    @Test func everyAcknowledgedNodeSurvivesASIGKILLAndTheClientCompletes() async throws {
        let first = try await ServerProcess.start(extraArguments: ["--no-rate-limit"])
        let url = try #require(URL(string: first.baseURL))
        let port = try #require(url.port)
        let walletKey = PrivateKey.generate()
        let anna = try await SyncDevice(server: url, username: "anna", walletKey: walletKey, signUp: true)
        defer { anna.directory.remove() }

        // Given 1,500 offline tasks (one CREATE each), appended in one go
        let nodes = try anna.appendOfflineTasks(1500, seed: 0x5EED_C2A5)

        // When the server is killed while the push is under way
        var configured = try anna.taskSync()
        configured.batchSize = Self.batchSize
        let engine = configured
        let push = Task { try await engine.run() }
        // The engine writes the log through its own connection; a read that finds it locked
        // just means "not yet".
        // Bounded: a push that never starts fails here instead of hanging the suite.
        let started = await eventually(within: .seconds(60)) {
            ((try? anna.editor.log.unsyncedCount()) ?? nodes.count) < nodes.count
        }
        try #require(started, "the push acknowledged nothing within 60 s")
        await first.killed()
        let interrupted = await push.result
        let acknowledged = Set(nodes.map(\.id.description)).subtracting(
            try anna.editor.log.unsyncedTexts().map(\.id))
        #expect(!acknowledged.isEmpty)

        // Then after a restart on the same data, a new device of the account pulls every
        // acknowledged node, and the interrupted device finishes without duplicates
        let second = try await ServerProcess.start(
            dataDirectory: first.dataDirectory, port: port, extraArguments: ["--no-rate-limit"])
        do {
            try await Self.resume(
                anna, url: url, walletKey: walletKey, nodes: nodes.count, acknowledged: acknowledged,
                interrupted: interrupted)
        } catch {
            _ = await second.stopped()
            throw error
        }
        #expect(await second.stopped() == 0)
    }

    private static func resume(
        _ anna: SyncDevice, url: URL, walletKey: PrivateKey, nodes: Int, acknowledged: Set<String>,
        interrupted: Result<TaskSyncReport, any Error>
    ) async throws {
        let fresh = try await SyncDevice(server: url, username: "anna", walletKey: walletKey, signUp: false)
        defer { fresh.directory.remove() }
        var freshSync = try fresh.taskSync()
        freshSync.pageSize = 1000
        _ = try await freshSync.run()
        let pulled = Set(try fresh.editor.log.validNodes().map(\.id.description))
        #expect(acknowledged.isSubset(of: pulled))

        let resumed = try await anna.taskSync().run()
        if case .success = interrupted { Issue.record("the push was expected to be cut off") }
        #expect(resumed.rejected.isEmpty)
        // The resumed run pulls first: what the server holds comes back (the acknowledged nodes,
        // and the batch in flight when the server died if it committed before its answer was
        // lost), and the rest is pushed now. Each node once.
        #expect(resumed.pushed + resumed.alreadyOnServer + resumed.pulled == nodes)
        #expect(resumed.pulled >= acknowledged.count)
        #expect(resumed.pulled - acknowledged.count <= Self.batchSize)
        #expect(try anna.editor.log.unsyncedCount() == 0)
        _ = try await freshSync.run()
        #expect(try fresh.editor.log.count() == nodes)
        #expect(try fresh.stateText() == anna.stateText())
    }
}
