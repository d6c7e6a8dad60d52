import Contacts
import Foundation
import KaspaCrypto
import RedoProtocol
import TandemSync
import TandemTesting
import TaskStore
import TestSupport
import Testing

/// An app cancels a sync midway (issue 46 item 4): the run ends with `SyncError.cancelled`
/// instead of finishing the pull, keeps whole pages with the cursor after them, and the next run
/// pulls exactly the rest. (That nothing is stored once a cancelled pull has returned is
/// `PagedPullTests`; here it is the engines over a real server.)
@Suite(.serialized) struct SyncCancellationTests {
    /// Runs `sync`, cancels it once it announces its first stored page, and returns its outcome.
    static func cancelledAfterFirstPage<Report: Sendable>(
        _ sync: @escaping @Sendable (@escaping @Sendable (SyncProgress) -> Void) async throws(SyncError) -> Report
    ) async -> Result<Report, any Error> {
        let (announced, announce) = AsyncStream<SyncProgress>.makeStream()
        let running = Task { () async throws(SyncError) -> Report in try await sync { announce.yield($0) } }
        for await _ in announced { break }
        running.cancel()
        return await running.result
    }

    @Test(.timeLimit(.minutes(2))) func aCancelledTaskPullKeepsWholePagesAndTheNextRunPullsTheRest() async throws {
        let server = try await SyncConvergenceTests.startServer(databaseURL: nil)
        defer { server.stop() }
        let walletKey = PrivateKey.generate()
        let laptop = try await SyncDevice(server: server.url, username: "nora", walletKey: walletKey, signUp: true)
        let phone = try await SyncDevice(server: server.url, username: "nora", walletKey: walletKey, signUp: false)
        defer {
            laptop.directory.remove()
            phone.directory.remove()
        }
        // Given 350 tasks on the server (pages of 7 after a first page of 3)
        let total = 350
        _ = try laptop.appendOfflineTasks(total, seed: 0xCA9C_E11E)
        #expect(try await laptop.taskSync().run().pushed == total)

        // When the phone's pull is cancelled once it has stored its first page
        let engine = try phone.taskSync()
        let outcome = await Self.cancelledAfterFirstPage { progress async throws(SyncError) in
            try await engine.run(progress: progress)
        }

        // Then the run says so, and kept whole pages only
        #expect(throws: SyncError.cancelled) { try outcome.get() }
        let kept = try phone.editor.log.count()
        #expect(kept >= 3)
        #expect(kept < total)
        #expect((kept - 3) % 7 == 0)
        // And the next run pulls exactly the rest
        let resumed = try await phone.taskSync().run()
        #expect(resumed.pulled == total - kept)
        #expect(try phone.stateText() == laptop.stateText())
    }

    @Test(.timeLimit(.minutes(2))) func aCancelledContactsPullKeepsWhatItMergedAndTheNextRunPullsTheRest() async throws
    {
        let server = try await SyncConvergenceTests.startServer(databaseURL: nil)
        defer { server.stop() }
        let walletKey = PrivateKey.generate()
        let laptop = try await SyncDevice(server: server.url, username: "omar", walletKey: walletKey, signUp: true)
        let phone = try await SyncDevice(server: server.url, username: "omar", walletKey: walletKey, signUp: false)
        defer {
            laptop.directory.remove()
            phone.directory.remove()
        }
        // Given 120 contacts on the server (pages of 3)
        let total = 120
        var generator = SeededRandom(seed: 0xC0_47AC)
        for index in 0..<total {
            let key = try PrivateKey(
                rawRepresentation: (0..<32).map { _ in UInt8.random(in: 1...255, using: &generator) })
            let peer = ContactAddress(KaspaAddress(publicKey: key.xOnlyPublicKey))
            _ = try laptop.contacts.add(peer, wallet: laptop.wallet, alias: "peer \(index)")
        }
        #expect(try await laptop.contactsSync().run().pushed == total)

        // When the phone's pull is cancelled once it has merged its first page
        let engine = try phone.contactsSync()
        let outcome = await Self.cancelledAfterFirstPage { progress async throws(SyncError) in
            try await engine.run(progress: progress)
        }

        // Then the run says so, and the next run pulls exactly what it had not merged
        #expect(throws: SyncError.cancelled) { try outcome.get() }
        let merged = try phone.contactList().count
        #expect(merged >= 3)
        #expect(merged < total)
        let resumed = try await phone.contactsSync().run()
        #expect(resumed.pulled == total - merged)
        #expect(resumed.pushed == 0)
        #expect(try phone.contactList() == laptop.contactList())
    }
}
