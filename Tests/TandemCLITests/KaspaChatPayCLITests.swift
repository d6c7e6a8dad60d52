import Foundation
import Testing

/// `tandem chat pay` (issue 43 item 3) between two profiles on a `tandem-simnode`: the exact JSON
/// members, both histories showing the amount and memo, and bad input refused with one line and
/// nothing submitted.
@Suite("Payments in chat (issue 43)")
struct KaspaChatPayCLITests {
    static func connect(_ dir: String, _ node: SimNodeProcess) async throws {
        let connected = try await TandemProcess.run(
            "kaspa", "connect", "--network", "testnet-10", "--node", node.url, "--profile", dir)
        try #require(connected.status == 0, "\(connected.stderrText)")
    }

    static func history(_ dir: String, with peer: String) async throws -> [[String: Any]] {
        let output = try await TandemProcess.run("chat", "history", "--json", "--profile", dir, "--with", peer)
        let page = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
        return page["messages"] as? [[String: Any]] ?? []
    }

    @Test("a payment with a memo reaches the peer, and both histories show amount and memo")
    func payWithMemo() async throws {
        let node = try await SimNodeProcess.start()
        let alice = try await KaspaWalletCLITests.profile()
        let bob = try await KaspaWalletCLITests.profile()
        try await node.fund(alice.address, sompi: 1_000_000_000)
        try await Self.connect(alice.dir, node)
        try await Self.connect(bob.dir, node)

        let memo = "for lunch 🍜"
        let paid = try await TandemProcess.run(
            "chat", "pay", "--to", bob.address, "--amount", "1.5", "--memo", memo, "--json", "--profile", alice.dir)
        #expect(paid.status == 0, "\(paid.stderrText)")
        let receipt = try KaspaWalletCLITests.json(paid)
        #expect(Set(receipt.keys) == ["transactionId", "amount", "fee", "to", "memo"])
        let txID = try #require(receipt["transactionId"] as? String)
        #expect(receipt["amount"] as? Int == 150_000_000)
        #expect((receipt["fee"] as? Int ?? 0) > 0)
        #expect(receipt["to"] as? String == bob.address)
        #expect(receipt["memo"] as? String == memo)
        #expect(try await node.mempool() == [txID])
        try await node.mine()

        // Bob's sync reads the payment from the chain: its amount on chain and the memo.
        let synced = try await TandemProcess.run("chat", "sync", "--json", "--profile", bob.dir)
        #expect(synced.status == 0, "\(synced.stderrText)")
        let items = synced.stdoutText.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let payment = try #require(items.first { $0["kind"] as? String == "payment" })
        #expect(payment["transactionId"] as? String == txID)
        #expect(payment["amountSompi"] as? Int == 150_000_000)
        #expect(payment["text"] as? String == memo)
        #expect(payment["verified"] as? Bool == true, "read from an accepted block (issue 50 item 7)")

        let atBob = try await Self.history(bob.dir, with: alice.address)
        let incoming = try #require(atBob.first { $0["kind"] as? String == "payment" })
        #expect(incoming["direction"] as? String == "incoming")
        #expect(incoming["amountSompi"] as? Int == 150_000_000)
        #expect(incoming["text"] as? String == memo)
        let atAlice = try await Self.history(alice.dir, with: bob.address)
        let outgoing = try #require(atAlice.first { $0["kind"] as? String == "payment" })
        #expect(outgoing["direction"] as? String == "outgoing")
        #expect(outgoing["transactionId"] as? String == txID)
        #expect(outgoing["amountSompi"] as? Int == 150_000_000)
        #expect(outgoing["text"] as? String == memo)
        #expect(outgoing["root"] as? String == "ciph_msg", "no evidence of Bob's app: the root both read")
        // Alice's own payment is unverified until her walk sees a block accept it (issue 50 item 7).
        #expect(outgoing["verified"] as? Bool == false)
        let sent = try await TandemProcess.run("chat", "history", "--profile", alice.dir, "--with", bob.address)
        #expect(sent.stdoutText.contains("payment of 1.50000000 KAS (unverified): \(memo)"), "\(sent.stdoutText)")
        #expect(try await TandemProcess.run("chat", "sync", "--profile", alice.dir).status == 0)
        let plain = try await TandemProcess.run("chat", "history", "--profile", alice.dir, "--with", bob.address)
        #expect(plain.stdoutText.contains("paid 1.50000000 KAS: \(memo)"), "\(plain.stdoutText)")
    }

    @Test(
        "a memo over 140 characters, a bad amount, a fee over the limit or a relay profile: one line, nothing submitted"
    )
    func refusals() async throws {
        let node = try await SimNodeProcess.start()
        let alice = try await KaspaWalletCLITests.profile()
        let bob = try await KaspaWalletCLITests.profile()
        try await node.fund(alice.address, sompi: 1_000_000_000)
        try await Self.connect(alice.dir, node)
        for arguments in [
            ["--amount", "1", "--memo", String(repeating: "m", count: 141)], ["--amount", "-1"],
            ["--amount", "1.123456789"], ["--amount", "0"], ["--amount", "1", "--max-fee", "x"],
            // A fee limit no fee fits under (issue 50 item 1).
            ["--amount", "1", "--max-fee", "0"],
        ] {
            let refused = try await TandemProcess.run(
                ["chat", "pay", "--to", bob.address, "--profile", alice.dir] + arguments)
            #expect(refused.status == 1, "\(arguments)")
            #expect(refused.stderrLines.count == 1, "\(arguments): \(refused.stderrText)")
        }
        let badAddress = try await TandemProcess.run(
            "chat", "pay", "--to", "kaspatest:nope", "--amount", "1", "--profile", alice.dir)
        #expect(badAddress.status == 1)
        #expect(try await node.mempool().isEmpty)
        // Bob chats through a relay: a payment needs the Kaspa network.
        let relay = try await TandemProcess.run(
            "chat", "pay", "--to", alice.address, "--amount", "1", "--profile", bob.dir)
        #expect(relay.status == 1)
        #expect(relay.stderrLines.count == 1)
        #expect(relay.stderrText.contains("tandem kaspa connect"))
    }
}
