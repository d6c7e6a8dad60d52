import Foundation
import TestSupport
import Testing

/// Money you can see (issue 51 item 3): over Kaspa, `chat handshake`, `chat send` and `chat pay`
/// say what they paid in human output and in `--json`; the first message to a new peer asks on
/// a terminal first, and `--yes` skips the question; an empty wallet says how to fund it.
@Suite("Spending in chat (issue 51)")
struct KaspaSpendingCLITests {
    static func connected(_ node: SimNodeProcess, funded: UInt64?) async throws -> (dir: String, address: String) {
        let profile = try await KaspaWalletCLITests.profile()
        if let funded { try await node.fund(profile.address, sompi: funded) }
        try await KaspaChatPayCLITests.connect(profile.dir, node)
        return profile
    }

    /// Runs `command` in a tmux window of its own for `body`, and ends the window either way.
    static func inTmux(_ command: [String], _ body: (TmuxSession) async throws -> Void) async throws {
        let session = try await TmuxSession(command: command, width: 200, height: 20)
        do { try await body(session) } catch {
            await session.kill()
            throw error
        }
        await session.kill()
    }

    @Test("send and handshake report each transaction, its fee and the 0.2 KAS, in JSON and in words")
    func spendingIsReported() async throws {
        let node = try await SimNodeProcess.start()
        let alice = try await Self.connected(node, funded: 1_000_000_000)
        let bob = try await KaspaWalletCLITests.profile()
        let carol = try await KaspaWalletCLITests.profile()

        // The first message to Bob starts the chat: handshake, its saved copy, then the message.
        let first = try await TandemProcess.run(
            "chat", "send", "--to", bob.address, "hello", "--json", "--profile", alice.dir)
        #expect(first.status == 0, "\(first.stderrText)")
        let sent = try KaspaWalletCLITests.json(first)
        let spends = try #require(sent["spends"] as? [[String: Any]])
        #expect(spends.map { $0["purpose"] as? String } == ["handshake", "saved-handshake", "message"])
        #expect(spends.allSatisfy { ($0["fee"] as? Int ?? 0) > 0 })
        #expect(spends.map { $0["amount"] as? Int } == [20_000_000, 0, 0])
        let fees = spends.compactMap { $0["fee"] as? Int }.reduce(0, +)
        #expect(sent["fee"] as? Int == fees)
        #expect(sent["amount"] as? Int == 20_000_000)
        #expect(sent["transactionId"] as? String == sent["txID"] as? String)
        #expect(sent["transactionId"] as? String == spends.last?["transactionId"] as? String)
        #expect(Set(try await node.mempool()) == Set(spends.compactMap { $0["transactionId"] as? String }))

        // The next message is one transaction, its fee said in KAS.
        let second = try await TandemProcess.run("chat", "send", "--to", bob.address, "again", "--profile", alice.dir)
        #expect(second.status == 0, "\(second.stderrText)")
        #expect(
            second.stdoutText.range(
                of: #"^sent \(tx [0-9a-f]{64}, fee 0\.[0-9]{8} KAS\)\n$"#, options: .regularExpression) != nil,
            "\(second.stdoutText)")

        // An explicit handshake says the 0.2 KAS and the fees in words.
        let handshake = try await TandemProcess.run("chat", "handshake", "--to", carol.address, "--profile", alice.dir)
        #expect(handshake.status == 0, "\(handshake.stderrText)")
        #expect(
            handshake.stdoutText.contains("started the chat: paid 0.20000000 KAS to \(carol.address) and 0."),
            "\(handshake.stdoutText)")
        #expect(!handshake.stdoutText.contains("sompi"))

        // A payment's fee is in KAS too.
        let paid = try await TandemProcess.run(
            "chat", "pay", "--to", bob.address, "--amount", "0.5", "--profile", alice.dir)
        #expect(paid.status == 0, "\(paid.stderrText)")
        #expect(paid.stdoutText.contains("KAS); paid once a block accepts it") && !paid.stdoutText.contains("sompi"))
    }

    @Test("an empty wallet says how to fund it or go back to a relay, and stores nothing")
    func emptyWallet() async throws {
        let node = try await SimNodeProcess.start()
        let alice = try await Self.connected(node, funded: nil)
        let bob = try await KaspaWalletCLITests.profile()
        let output = try await TandemProcess.run("chat", "send", "--to", bob.address, "hi", "--profile", alice.dir)
        #expect(output.status == 1)
        #expect(output.stderrLines.count == 1)
        #expect(output.stderrText.contains("the wallet is empty: send KAS to \(alice.address)"), "\(output.stderrText)")
        #expect(output.stderrText.contains("tandem kaspa disconnect"))
        #expect(try await KaspaChatPayCLITests.history(alice.dir, with: bob.address).isEmpty)

        let tooSmall = try await TandemProcess.run(
            "wallet", "send", "--to", bob.address, "--amount", "0.001", "--profile", alice.dir)
        #expect(tooSmall.status == 1)
    }

    @Test("a relay send pays nothing: fee and amount are null")
    func relayPaysNothing() async throws {
        let server = try await ServerProcess.start()
        let alice = try await KaspaWalletCLITests.profile()
        let bob = try await KaspaWalletCLITests.profile()
        let relayBob = try await TandemProcess.run("keys", "show", "--json", "--profile", bob.dir)
        let bobAddress = try #require(try KaspaWalletCLITests.json(relayBob)["address"] as? String)
        let sent = try await TandemProcess.run(
            "chat", "send", "--to", bobAddress, "hi", "--json", "--server", server.baseURL, "--profile", alice.dir)
        #expect(sent.status == 0, "\(sent.stderrText)")
        let object = try KaspaWalletCLITests.json(sent)
        #expect(object["fee"] is NSNull && object["amount"] is NSNull)
        #expect((object["spends"] as? [Any])?.isEmpty == true)
        #expect(object["transactionId"] as? String == object["txID"] as? String)
        _ = await server.stopped()
    }

    @Test(
        "on a terminal the first message asks before paying 0.2 KAS; no sends nothing, yes and --yes send",
        .enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func terminalConfirmation() async throws {
        let node = try await SimNodeProcess.start()
        let alice = try await Self.connected(node, funded: 1_000_000_000)
        let bob = try await KaspaWalletCLITests.profile()
        let command = [
            TandemProcess.binary.path, "chat", "send", "--to", bob.address, "hi bob", "--profile", alice.dir,
        ]

        try await Self.inTmux(command) { declined in
            try await declined.waitFor("the question") { $0.joined().contains("— continue? [y/N]") }
            let screen = try await declined.capture().joined(separator: "\n")
            #expect(screen.contains("starts a chat: pays 0.20000000 KAS to \(bob.address), fee ≈ 0."), "\(screen)")
            try await declined.type("n")
            try await declined.press("Enter")
            try await declined.waitFor("the refusal") { $0.joined().contains("[exit 1]") }
            #expect(try await declined.capture().joined().contains("nothing was sent"))
        }
        #expect(try await node.mempool().isEmpty, "nothing was submitted")
        #expect(try await KaspaChatPayCLITests.history(alice.dir, with: bob.address).isEmpty)

        try await Self.inTmux(command) { accepted in
            try await accepted.waitFor("the question") { $0.joined().contains("— continue? [y/N]") }
            try await accepted.type("y")
            try await accepted.press("Enter")
            try await accepted.waitFor("the send") { $0.joined().contains("[exit 0]") }
            #expect(try await accepted.capture().joined().contains("started the chat: paid 0.20000000 KAS"))
        }

        let carol = try await KaspaWalletCLITests.profile()
        let unasked = [
            TandemProcess.binary.path, "chat", "send", "--yes", "--to", carol.address, "hi", "--profile", alice.dir,
        ]
        try await Self.inTmux(unasked) { session in
            let screen = try await session.waitFor("the send") { $0.joined().contains("[exit 0]") }
            #expect(!screen.joined().contains("continue?"))
        }
    }
}
