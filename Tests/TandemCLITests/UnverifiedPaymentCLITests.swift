import Foundation
import KasiaProtocol
import KaspaCrypto
import KaspaSimNode
import KaspaTransaction
import TandemAPI
import TandemBasics
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 50 item 7: a payment seen only through a relay is never called paid. A real
/// `tandem serve --kaspa-node` following a simulated node whose clock runs five minutes behind the
/// server's; Mallory relays two signed payments to Bob, one spending a coin that does not exist
/// and one spending a real coin. Bob's CLI shows both as unverified until a block accepts the real
/// one; the invented one stays unverified. The block's time is before the relay time Bob's cursor
/// stands at, so only asking again about unverified payments finds the acceptance.
@Suite(.serialized) struct UnverifiedPaymentCLITests {
    static let mallory = (try? PrivateKey(hex: String(repeating: "4d", count: 32)))

    static func payment(to bob: KaspaAddress, amount: UInt64, memo: String, spending coin: KaspaUtxoEntry)
        throws -> KaspaTransaction
    {
        let key = try #require(Self.mallory)
        let sealed = try KasiaCipher.seal(#"{"type":"payment","message":"\#(memo)"}"#, to: bob)
        let payload = KasiaPayload.payment(sealed: sealed, form: .kachat).encoded(root: .ciphMsg)
        return try KaspaTransactionBuilder(key: key).build(
            .payment(to: bob, amount: amount, memo: payload), utxos: [coin])
    }

    /// `POST /kasia/transactions`: the relay's answer as JSON.
    static func relay(_ transaction: KaspaTransaction, to server: ServerProcess) async throws -> [String: Any] {
        let url = try #require(URL(string: server.baseURL + APIPath.kasiaTransactions))
        var request = URLRequest(url: url, timeoutInterval: 30)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(
            RelayKaspaSubmission(transaction: try RelayKaspaTransaction(converting: transaction)))
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The `verified` member of each of the server's payment rows to `address`, by tx id.
    static func served(_ server: ServerProcess, to address: KaspaAddress) async throws -> [String: Bool] {
        try await rows(server, to: address).compactMapValues { $0["verified"] as? Bool }
    }

    /// The server's payment rows to `address`, by tx id.
    static func rows(_ server: ServerProcess, to address: KaspaAddress) async throws -> [String: [String: Any]] {
        let url = try #require(
            URL(string: server.baseURL + APIPath.kasiaPaymentsByReceiver + "?address=\(address)&limit=50"))
        let (data, _) = try await URLSession.shared.data(from: url)
        let rows = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        var byID: [String: [String: Any]] = [:]
        for row in rows {
            if let id = row["tx_id"] as? String { byID[id] = row }
        }
        return byID
    }

    static func lines(_ output: TandemProcess.Output) -> [[String: Any]] {
        output.stdoutText.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test("a relayed payment of an invented coin stays unverified; a real one is verified once a block accepts it")
    func unverifiedUntilAccepted() async throws {
        let behind = UnixMillis(SystemClock().now.rawValue - 5 * 60 * 1000)
        let node = SimulatedKaspaNode(
            chain: SimulatedChain(network: .mainnet), clock: SystemClock(startingAt: behind))
        let malloryAddress = KaspaAddress(publicKey: try #require(Self.mallory).xOnlyPublicKey, network: .mainnet)
        let fundingID = try await node.fund(malloryAddress, amount: 1_000_000_000)
        try await node.serve { servers in
            let server = try await ServerProcess.start(extraArguments: [
                "--no-rate-limit", "--kaspa-node", servers[0].url, "--kaspa-network", "mainnet",
            ])
            defer { server.stop() }
            try await exchange(node, server, malloryAddress: malloryAddress, fundingID: fundingID)
        }
    }

    func exchange(
        _ node: SimulatedKaspaNode, _ server: ServerProcess, malloryAddress: KaspaAddress, fundingID: [UInt8]
    ) async throws {
        let tip = await node.read { Hex.encode($0.tip.hash) }
        try await ChainIndexCLITests.waitUntil("the server has indexed the funding block", within: .seconds(60)) {
            try await ChainIndexCLITests.latestBlock(server.baseURL) == tip
        }
        let bobDirectory = try TandemProcess.temporaryDirectory().path
        try #require(try await TandemProcess.run("keys", "new", "--profile", bobDirectory).status == 0)
        let bob = try KaspaAddress(try await ChatCommandCLITests.address(of: bobDirectory))
        let s = ["--profile", bobDirectory, "--server", server.baseURL]

        // Given a payment spending a coin no block ever made, and one spending a real coin
        let invented = KaspaUtxoEntry(
            address: malloryAddress,
            outpoint: KaspaOutpoint(transactionID: [UInt8](repeating: 0xcd, count: 32), index: 0),
            amount: 100_000_000_000_000_000, scriptPublicKey: KaspaScriptPublicKey(address: malloryAddress))
        let forged = try Self.payment(to: bob, amount: 99_999_999_000_000_000, memo: "forged", spending: invented)
        let coin = KaspaUtxoEntry(
            address: malloryAddress, outpoint: KaspaOutpoint(transactionID: fundingID, index: 0),
            amount: 1_000_000_000, scriptPublicKey: KaspaScriptPublicKey(address: malloryAddress))
        let real = try Self.payment(to: bob, amount: 200_000_000, memo: "real", spending: coin)

        // When both are relayed (the node refuses the forged one, the relay keeps its row)
        let forgedAnswer = try await Self.relay(forged, to: server)
        #expect((forgedAnswer["kaspa"] as? [String: Any])?["accepted"] as? Bool == false, "\(forgedAnswer)")
        let realAnswer = try await Self.relay(real, to: server)
        #expect((realAnswer["kaspa"] as? [String: Any])?["accepted"] as? Bool == true, "\(realAnswer)")
        let forgedID = Hex.encode(forged.id)
        let realID = Hex.encode(real.id)
        #expect(try await Self.served(server, to: bob) == [forgedID: false, realID: false])
        let relayedAt = try #require(try await Self.rows(server, to: bob)[realID]?["block_time"] as? Int)

        // Then Bob's sync and history call neither paid
        let first = try await TandemProcess.run(["chat", "sync", "--json"] + s)
        #expect(first.status == 0, "\(first.stderrText)")
        let arrived = Self.lines(first).filter { $0["kind"] as? String == "payment" }
        #expect(Set(arrived.compactMap { $0["txID"] as? String }) == [forgedID, realID])
        #expect(arrived.allSatisfy { $0["verified"] as? Bool == false }, "\(arrived)")
        let before = try await TandemProcess.run(["chat", "history", "--with", malloryAddress.description] + s)
        #expect(
            before.stdoutText.contains("payment of 999999990.00000000 KAS (unverified): forged"), "\(before.stdoutText)"
        )
        #expect(before.stdoutText.contains("payment of 2.00000000 KAS (unverified): real"))
        #expect(!before.stdoutText.contains("received"))

        // When a block accepts the real payment and the server's ingest sees it
        _ = await node.mine()
        try await ChainIndexCLITests.waitUntil("the server serves the real payment as verified", within: .seconds(60)) {
            try await Self.served(server, to: bob)[realID] == true
        }
        let acceptedAt = try #require(try await Self.rows(server, to: bob)[realID]?["block_time"] as? Int)
        #expect(acceptedAt < relayedAt, "the block's time is before where Bob's cursor stands")

        // Then Bob's next sync says so, and only the real one is called received
        let second = try await TandemProcess.run(["chat", "sync", "--json"] + s)
        #expect(second.status == 0, "\(second.stderrText)")
        let verified = Self.lines(second).filter { $0["kind"] as? String == "paymentVerified" }
        #expect(verified.map { $0["txID"] as? String } == [realID], "\(second.stdoutText)")
        let history = try await TandemProcess.run(
            ["chat", "history", "--json", "--with", malloryAddress.description] + s)
        let page = try #require(try JSONSerialization.jsonObject(with: history.stdout) as? [String: Any])
        let rows = try #require(page["messages"] as? [[String: Any]])
        let flags = Dictionary(
            uniqueKeysWithValues: rows.compactMap { row in
                (row["txID"] as? String).map { ($0, row["verified"] as? Bool) }
            })
        #expect(flags == [forgedID: false, realID: true])
        let after = try await TandemProcess.run(["chat", "history", "--with", malloryAddress.description] + s)
        #expect(after.stdoutText.contains("received 2.00000000 KAS: real"), "\(after.stdoutText)")
        #expect(after.stdoutText.contains("payment of 999999990.00000000 KAS (unverified): forged"))
        #expect(try await Self.served(server, to: bob)[forgedID] == false)
    }
}
