import Foundation
import TandemProfile
import Testing

/// `tandem kaspa connect --indexer` and `tandem chat restore` against a real `tandem-simnode`,
/// whose kasia-indexer routes are computed from its chain (issue 24): the CLI's indexer reads go
/// through its AsyncHTTPClient transport to the routes at the indexer's root.
@Suite("Kaspa restore from an indexer, CLI (issue 24)")
struct KaspaIndexerRestoreCLITests {
    @Test("a new device restores from the simulated node's indexer")
    func restoreThroughTheIndexer() async throws {
        // Given Alice and Bob chatting over the simulated node, then blocks after the chat
        let node = try await SimNodeProcess.start()
        let alice = try await KaspaWalletCLITests.profile()
        let bob = try await KaspaWalletCLITests.profile()
        for profile in [alice, bob] {
            try await node.fund(profile.address, sompi: 1_000_000_000)
            let connected = try await TandemProcess.run(
                "kaspa", "connect", "--network", "testnet-10", "--node", node.url, "--profile", profile.dir)
            #expect(connected.status == 0, "\(connected.stderrText)")
        }
        func chat(_ arguments: String...) async throws {
            let run = try await TandemProcess.run(["chat"] + arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderrText)")
        }
        try await chat("handshake", "--to", bob.address, "--profile", alice.dir)
        try await node.mine()
        try await chat("sync", "--profile", bob.dir)
        try await chat("send", "--to", alice.address, "from bob", "--profile", bob.dir)
        try await chat("send", "--to", bob.address, "from alice", "--profile", alice.dir)
        try await node.mine()
        try await node.mine(5)

        // When a new profile of Bob's key connects naming the node's indexer and restores
        let restored = try TandemProcess.temporaryDirectory()
        try Profile(directory: restored).importWalletKey(
            try Profile(directory: URL(fileURLWithPath: bob.dir)).walletKey())
        let indexer = "http://127.0.0.1:\(node.ports[0])"
        let connected = try await TandemProcess.run(
            "kaspa", "connect", "--network", "testnet-10", "--node", node.url, "--indexer", indexer, "--json",
            "--profile", restored.path)
        #expect(try KaspaWalletCLITests.json(connected)["indexer"] as? String == indexer)
        let restore = try await TandemProcess.run("chat", "restore", "--json", "--profile", restored.path)
        #expect(restore.status == 0, "\(restore.stderrText)")

        // Then Alice's handshake and message arrive once, and history holds Bob's own message as sent
        let items = try restore.stdoutText.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(items.compactMap { $0["kind"] as? String } == ["handshake", "text"])
        #expect(items.last?["text"] as? String == "from alice")
        #expect(Set(items.compactMap { $0["from"] as? String }) == [alice.address])
        let history = try await TandemProcess.run(
            "chat", "history", "--with", alice.address, "--json", "--profile", restored.path)
        let page = try KaspaWalletCLITests.json(history)
        let texts = (page["messages"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "text" }
        #expect(texts.compactMap { $0["direction"] as? String }.sorted() == ["incoming", "outgoing"])

        // And the same restore against an indexer that does not answer fails: the history is its
        let unreachable = try TandemProcess.temporaryDirectory()
        try Profile(directory: unreachable).importWalletKey(try Profile(directory: restored).walletKey())
        #expect(
            try await TandemProcess.run(
                "kaspa", "connect", "--network", "testnet-10", "--node", node.url, "--indexer", "http://127.0.0.1:9",
                "--profile", unreachable.path
            ).status == 0)
        let failed = try await TandemProcess.run("chat", "restore", "--profile", unreachable.path)
        #expect(failed.status == 1)
        #expect(failed.stderrLines.count == 1)
    }
}
