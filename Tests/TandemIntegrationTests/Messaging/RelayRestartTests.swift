import ChatHistory
import ChatTimeline
import Foundation
import KaspaCrypto
import TandemMessaging
import TandemWallet
import TestSupport
import Testing

/// The server SIGKILLed and restarted mid-conversation (issue 11 "Tests"): a real
/// `tandem serve` child on one fixed database, killed while Alice is sending, restarted on the
/// same port. No acknowledged message is lost, Alice's unacknowledged rows go out again as
/// the same submissions (``RelayOutbox``), and after a sync each text is stored once.
@Suite(.serialized) struct RelayRestartTests {
    /// Alice sends this many messages; the server dies after the first acknowledgements.
    static let burst = 24
    /// Acknowledged sends before the kill.
    static let killAfter = 6

    @Test(arguments: RelayBackend.available)
    func aServerKilledMidConversationLosesNoAcknowledgedMessageAndTheClientResumes(backend: RelayBackend)
        async throws
    {
        try await backend.withDatabase { databaseURL in try await killAndResume(databaseURL: databaseURL) }
    }

    func killAndResume(databaseURL: String?) async throws {
        // Given a relay on a fixed database and Alice and Bob in a conversation
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let first = try await ServerProcess.start(
            dataDirectory: data, databaseURL: databaseURL, extraArguments: ["--no-rate-limit"])
        var running: ServerProcess? = first
        defer { running?.child.send(SIGKILL) }
        let url = try #require(URL(string: first.baseURL))
        let (alice, aliceDirectory) = try MessagingRelayTests.messenger(url)
        let (bob, bobDirectory) = try MessagingRelayTests.messenger(url)
        defer {
            aliceDirectory.remove()
            bobDirectory.remove()
        }
        try await alice.startConversation(with: bob.address)
        try await bob.sync()
        try await bob.send("before the crash", to: alice.address)
        try await alice.sync()

        // When the server is SIGKILLed while Alice is sending, then restarted on the same port
        let texts = (0..<Self.burst).map { "burst #\($0) \(UUID().uuidString)" }
        var acknowledged: [String] = []
        var failures = 0
        for (index, text) in texts.enumerated() {
            if index == Self.killAfter {
                // A send in flight while the process dies: it may or may not have committed.
                async let inFlight = try? alice.send(text, to: bob.address)
                await first.killed()
                running = nil
                if let row = await inFlight, row.status == .sent { acknowledged.append(text) } else { failures += 1 }
                continue
            }
            do {
                let row = try await alice.send(text, to: bob.address)
                if row.status == .sent { acknowledged.append(text) }
            } catch {
                failures += 1
            }
        }
        #expect(acknowledged.count >= Self.killAfter)
        #expect(failures >= Self.burst - Self.killAfter - 1, "sends to a dead server fail")
        let unsent = try await alice.history(with: bob.address, limit: 100).rows.filter {
            $0.kind == .text && $0.direction == .outgoing && $0.txID == nil
        }
        #expect(unsent.allSatisfy { $0.status == .failed || $0.status == .pending })
        let restarted = try await ServerProcess.start(
            dataDirectory: data, port: first.port, databaseURL: databaseURL, extraArguments: ["--no-rate-limit"])
        running = restarted
        #expect(restarted.baseURL == first.baseURL)

        // And both sides sync against the restarted server, and the conversation carries on
        try await alice.sync()
        try await bob.sync()
        try await bob.send("after the restart", to: alice.address)
        try await alice.sync()

        // Then Bob holds every acknowledged text, and every text Alice tried, each once, in order
        let bobRows = MessagingRelayTests.texts(try await MessagingRelayTests.allMessages(bob, with: alice.address))
        let bobTexts = bobRows.compactMap(MessagingRelayTests.text)
        #expect(bobTexts == ["before the crash"] + texts + ["after the restart"])
        #expect(Set(acknowledged).isSubset(of: Set(bobTexts)))
        #expect(Set(bobRows.compactMap(\.txID)).count == bobRows.count)

        // And Alice's history has one sent row per text, none left failed or pending
        let aliceRows = MessagingRelayTests.texts(
            try await MessagingRelayTests.allMessages(alice, with: bob.address))
        #expect(aliceRows.compactMap(MessagingRelayTests.text) == ["before the crash"] + texts + ["after the restart"])
        #expect(aliceRows.allSatisfy { $0.txID != nil && ($0.status == .sent || $0.status == .confirmed) })
        #expect(Set(aliceRows.compactMap(\.txID)).count == aliceRows.count)
        #expect(try await alice.resendUnsent().isEmpty)
    }
}
