import Foundation
import KaspaCrypto
import Testing

/// `tandem kaspa connect|status|disconnect` and `tandem wallet …` against a real `tandem-simnode`
/// process (issue 24 item 4): the exact command names and JSON members, and bad input exiting 1
/// with one line and submitting nothing.
@Suite("Kaspa network CLI (issue 24)")
struct KaspaWalletCLITests {
    /// A profile with a wallet key; its testnet address.
    static func profile() async throws -> (dir: String, address: String) {
        let dir = try TandemProcess.temporaryDirectory().path
        try await #require(TandemProcess.run("keys", "new", "--profile", dir).status == 0)
        let shown = try await TandemProcess.run("keys", "show", "--network", "testnet", "--json", "--profile", dir)
        let object = try JSONSerialization.jsonObject(with: shown.stdout) as? [String: Any]
        return (dir, try #require(object?["address"] as? String))
    }

    static func json(_ output: TandemProcess.Output) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any], "\(output.stderrText)")
    }

    @Test("connect checks the node, saves it, and status, balance, utxos and send use it")
    func walletRoundTrip() async throws {
        let node = try await SimNodeProcess.start()
        let alice = try await Self.profile()
        let bob = try await Self.profile()
        try await node.fund(alice.address, sompi: 500_000_000)

        let connected = try await TandemProcess.run(
            "kaspa", "connect", "--network", "testnet-10", "--node", node.url, "--profile", alice.dir, "--json")
        #expect(connected.status == 0, "\(connected.stderrText)")
        let status = try Self.json(try await TandemProcess.run("kaspa", "status", "--json", "--profile", alice.dir))
        #expect(status["network"] as? String == "testnet-10")
        #expect(status["node"] as? String == node.url)
        #expect(status["synced"] as? Bool == true)
        #expect((status["virtualDaaScore"] as? Int ?? 0) > 0)

        let balance = try Self.json(try await TandemProcess.run("wallet", "balance", "--json", "--profile", alice.dir))
        #expect(balance["address"] as? String == alice.address)
        #expect(balance["balance"] as? Int == 500_000_000)

        let utxos = try await TandemProcess.run("wallet", "utxos", "--json", "--profile", alice.dir)
        let entries = try #require(try JSONSerialization.jsonObject(with: utxos.stdout) as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(
            Set(entries[0].keys) == [
                "address", "outpoint", "amount", "scriptPublicKey", "blockDaaScore", "isCoinbase", "covenantId",
            ])
        #expect(entries[0]["amount"] as? Int == 500_000_000)

        let sent = try await TandemProcess.run(
            "wallet", "send", "--to", bob.address, "--amount", "1.25", "--priority", "high", "--json", "--profile",
            alice.dir)
        #expect(sent.status == 0, "\(sent.stderrText)")
        let receipt = try Self.json(sent)
        let txID = try #require(receipt["transactionId"] as? String)
        #expect(try await node.mempool() == [txID])
        #expect((receipt["fee"] as? Int ?? 0) > 0)
        #expect(receipt["amount"] as? Int == 125_000_000)

        try await node.mine()
        #expect(
            try await TandemProcess.run(
                "kaspa", "connect", "--network", "testnet-10", "--node", node.url, "--profile", bob.dir
            ).status == 0)
        let bobBalance = try Self.json(try await TandemProcess.run("wallet", "balance", "--json", "--profile", bob.dir))
        #expect(bobBalance["balance"] as? Int == 125_000_000)

        let disconnected = try await TandemProcess.run("kaspa", "disconnect", "--profile", alice.dir)
        #expect(disconnected.status == 0)
        let after = try await TandemProcess.run("wallet", "balance", "--profile", alice.dir)
        #expect(after.status == 1)
        #expect(after.stderrLines.count == 1)
    }

    @Test("connect names the node and the reason when none is usable, and saves nothing")
    func connectRefusesUnusableNodes() async throws {
        let node = try await SimNodeProcess.start(network: "testnet-11")
        let alice = try await Self.profile()
        let result = try await TandemProcess.run(
            "kaspa", "connect", "--network", "testnet-10", "--node", node.url, "--profile", alice.dir)
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrText.contains(node.url))
        #expect(result.stderrText.contains("it is on testnet-11, not testnet-10"))
        #expect(!FileManager.default.fileExists(atPath: alice.dir + "/kaspa-network.json"))
    }

    @Test(
        "bad wallet input exits 1 with one line and submits nothing",
        arguments: [
            ["--amount", "1.123456789"], ["--amount", "-1"], ["--amount", "0"], ["--amount", "abc"],
            ["--amount", "100"], ["--amount", "1", "--payload", "zz"], ["--amount", "1", "--to-mainnet"],
            ["--amount", "1", "--to", "kaspatest:qq"], ["--amount", "1", "--max-feerate", "abc"],
            ["--amount", "1", "--max-feerate", "-5"], ["--amount", "1", "--max-fee", "1e3"],
        ])
    func badSendInput(arguments: [String]) async throws {
        let node = try await SimNodeProcess.start()
        let alice = try await Self.profile()
        let bob = try await Self.profile()
        try await node.fund(alice.address, sompi: 500_000_000)
        #expect(
            try await TandemProcess.run(
                "kaspa", "connect", "--network", "testnet-10", "--node", node.url, "--profile", alice.dir
            ).status == 0)
        var command = ["wallet", "send", "--profile", alice.dir]
        if arguments.contains("--to-mainnet") {
            command += ["--to", bob.address.replacingOccurrences(of: "kaspatest:", with: "kaspa:")]
        } else if !arguments.contains("--to") {
            command += ["--to", bob.address]
        }
        command += arguments.filter { $0 != "--to-mainnet" }
        let result = try await TandemProcess.run(command)
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1, "\(result.stderrText)")
        #expect(try await node.mempool().isEmpty)
    }

    @Test("a greedy node's fee rate is refused with one line naming it; the profile's or the send's limit allows it")
    func greedyNode() async throws {
        let node = try await SimNodeProcess.start(arguments: ["--feerate", "80300"])
        let alice = try await Self.profile()
        let bob = try await Self.profile()
        try await node.fund(alice.address, sompi: 50 * 100_000_000)
        #expect(
            try await TandemProcess.run(
                "kaspa", "connect", "--network", "testnet-10", "--node", node.url, "--profile", alice.dir
            ).status == 0)
        let send = ["wallet", "send", "--to", bob.address, "--amount", "10", "--json", "--profile", alice.dir]
        let refused = try await TandemProcess.run(send)
        #expect(refused.status == 1)
        #expect(refused.stderrLines.count == 1, "\(refused.stderrText)")
        #expect(refused.stderrText.contains("80300 sompi/gram"))
        #expect(refused.stderrText.contains("--max-feerate 80300"))
        #expect(try await node.mempool().isEmpty)

        let limits = try Self.json(
            try await TandemProcess.run("wallet", "limits", "--json", "--profile", alice.dir))
        #expect(limits["maxFeerate"] as? Double == 10_000)
        #expect(limits["maxFee"] as? Int == 100_000_000)
        #expect(limits["source"] as? String == "default")

        // The fee at 80,300 sompi/gram (about 1.6 KAS) is above the default 1 KAS too: both are raised.
        let set = try await TandemProcess.run(
            "wallet", "limits", "--max-feerate", "80300", "--max-fee", "5", "--json", "--profile", alice.dir)
        #expect(set.status == 0, "\(set.stderrText)")
        #expect(try Self.json(set)["source"] as? String == "profile")
        // A reconnect keeps them.
        #expect(
            try await TandemProcess.run(
                "kaspa", "connect", "--network", "testnet-10", "--node", node.url, "--profile", alice.dir
            ).status == 0)
        let sent = try await TandemProcess.run(send)
        #expect(sent.status == 0, "\(sent.stderrText)")
        #expect(try await node.mempool().count == 1)

        let reset = try Self.json(
            try await TandemProcess.run("wallet", "limits", "--reset", "--json", "--profile", alice.dir))
        #expect(reset["source"] as? String == "default")
        let again = try await TandemProcess.run(send + ["--max-feerate", "80000", "--max-fee", "5"])
        #expect(again.status == 1)
        #expect(again.stderrLines.count == 1)
        let allowed = try await TandemProcess.run(send + ["--max-feerate", "80300", "--max-fee", "5"])
        #expect(allowed.status == 0, "\(allowed.stderrText)")
        #expect(try await node.mempool().count == 2)
    }

    @Test("connect without a node or resolver, and wallet commands on a relay profile, exit 1 with one line")
    func notConnected() async throws {
        let alice = try await Self.profile()
        for command in [
            ["kaspa", "connect", "--network", "testnet-10", "--profile", alice.dir],
            ["kaspa", "connect", "--network", "testnet-9", "--node", "ws://127.0.0.1:1", "--profile", alice.dir],
            ["kaspa", "connect", "--network", "testnet-10", "--node", "http://127.0.0.1:1", "--profile", alice.dir],
            ["kaspa", "status", "--profile", alice.dir],
            ["wallet", "balance", "--profile", alice.dir],
            ["wallet", "utxos", "--json", "--profile", alice.dir],
        ] {
            let result = try await TandemProcess.run(command)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderrLines.count == 1, "\(command): \(result.stderrText)")
        }
    }
}

/// `--resolver URL` (kaspa-node.md §1): the node a Resolver names is checked and used.
@Suite("Kaspa network CLI: Resolver (issue 24)")
struct KaspaResolverCLITests {
    @Test("connect asks the Resolver for a node of the network and uses the one it names")
    func connectThroughAResolver() async throws {
        let node = try await SimNodeProcess.start()
        let alice = try await KaspaWalletCLITests.profile()
        let resolver = "http://127.0.0.1:\(node.ports[0])"
        let connected = try await TandemProcess.run(
            "kaspa", "connect", "--network", "testnet-10", "--resolver", resolver, "--json", "--profile", alice.dir)
        #expect(connected.status == 0, "\(connected.stderrText)")
        let status = try KaspaWalletCLITests.json(connected)
        #expect(status["node"] as? String == node.url)
        #expect(status["resolver"] as? String == resolver)
        let balance = try await TandemProcess.run("wallet", "balance", "--json", "--profile", alice.dir)
        #expect(balance.status == 0, "\(balance.stderrText)")

        // A Resolver with no node of the network leaves the profile as it was, with one line.
        let bob = try await KaspaWalletCLITests.profile()
        let refused = try await TandemProcess.run(
            "kaspa", "connect", "--network", "mainnet", "--resolver", resolver, "--profile", bob.dir)
        #expect(refused.status == 1)
        #expect(refused.stderrLines.count == 1)
        #expect(refused.stderrText.contains("resolver"))
    }
}
