import Foundation
import KaspaCrypto
import Testing

/// A seed-phrase wallet finds and spends funds on every chain (issue 44 item 2): funded by the
/// simulated node on a change address and on KaChat's spending account, it shows the total,
/// lists the addresses with their paths, and spends from them together, change to the chatting
/// address.
@Suite("HD wallet over a node (issue 44)")
struct KaspaHDWalletCLITests {
    static let words = "legal winner thank year wave sausage worth useful legal winner thank yellow"

    static func address(_ path: String) throws -> String {
        let master = try ExtendedPrivateKey(seed: Mnemonic(phrase: words).seed())
        let key = try master.derive(DerivationPath(parsing: path)).privateKey
        return KaspaAddress(publicKey: key.xOnlyPublicKey, network: .testnet).description
    }

    @Test func fundsOnChangeAndSpendingChainsAreFoundAndSpent() async throws {
        let node = try await SimNodeProcess.start()
        let dir = try TandemProcess.temporaryDirectory().path
        let imported = try await TandemProcess.run(
            ["keys", "import", "--mnemonic-stdin", "--network", "testnet", "--json", "--profile", dir],
            stdin: Data(Self.words.utf8))
        #expect(imported.status == 0, "\(imported.stderrText)")
        let chatting = try Self.address("m/44'/111111'/0'/0/0")
        #expect(try KaspaWalletCLITests.json(imported)["address"] as? String == chatting)
        // Change index 3, and spending index 24: past the first 20 addresses, found because the
        // spending account is read 20 past index 5, which holds funds too.
        let change = try Self.address("m/44'/111111'/0'/1/3")
        let spendingNear = try Self.address("m/44'/111111'/1'/0/5")
        let spendingFar = try Self.address("m/44'/111111'/1'/0/24")
        let beyond = try Self.address("m/44'/111111'/0'/0/40")  // 40 empty receive addresses before it
        try await node.fund(change, sompi: 300_000_000)
        try await node.fund(spendingNear, sompi: 200_000_000)
        try await node.fund(spendingFar, sompi: 100_000_000)
        try await node.fund(beyond, sompi: 7_000_000_000)
        let bob = try await KaspaWalletCLITests.profile()
        #expect(
            try await TandemProcess.run(
                "kaspa", "connect", "--network", "testnet-10", "--node", node.url, "--profile", dir
            ).status == 0)

        let balance = try KaspaWalletCLITests.json(
            try await TandemProcess.run("wallet", "balance", "--json", "--profile", dir))
        #expect(balance["address"] as? String == chatting)
        #expect(balance["balance"] as? Int == 600_000_000)

        let listed = try KaspaWalletCLITests.json(
            try await TandemProcess.run("wallet", "addresses", "--json", "--profile", dir))
        let rows = try #require(listed["addresses"] as? [[String: Any]])
        #expect(
            rows.compactMap { $0["path"] as? String } == [
                "m/44'/111111'/0'/0/0", "m/44'/111111'/0'/1/3", "m/44'/111111'/1'/0/5", "m/44'/111111'/1'/0/24",
            ])
        #expect(rows.compactMap { $0["balance"] as? Int } == [0, 300_000_000, 200_000_000, 100_000_000])
        #expect(rows.compactMap { $0["address"] as? String } == [chatting, change, spendingNear, spendingFar])

        let utxos = try await TandemProcess.run("wallet", "utxos", "--json", "--profile", dir)
        #expect((try JSONSerialization.jsonObject(with: utxos.stdout) as? [[String: Any]])?.count == 3)

        // 5.5 KAS needs all three: each input signed with its own key, change to the chatting address.
        let sent = try await TandemProcess.run(
            "wallet", "send", "--to", bob.address, "--amount", "5.5", "--json", "--profile", dir)
        #expect(sent.status == 0, "\(sent.stderrText)")
        let receipt = try KaspaWalletCLITests.json(sent)
        #expect(receipt["inputs"] as? Int == 3)
        let fee = try #require(receipt["fee"] as? Int)
        #expect(receipt["change"] as? Int == 600_000_000 - 550_000_000 - fee)
        try await node.mine()
        let after = try KaspaWalletCLITests.json(
            try await TandemProcess.run("wallet", "balance", "--json", "--profile", dir))
        #expect(after["balance"] as? Int == 600_000_000 - 550_000_000 - fee)
        let bobBalance = try KaspaWalletCLITests.json(
            try await TandemProcess.run(
                "kaspa", "connect", "--network", "testnet-10", "--node", node.url, "--json", "--profile", bob.dir))
        #expect(bobBalance["synced"] as? Bool == true)
        let received = try KaspaWalletCLITests.json(
            try await TandemProcess.run("wallet", "balance", "--json", "--profile", bob.dir))
        #expect(received["balance"] as? Int == 550_000_000)

        // A wider gap finds what lies past 20 empty addresses, and the next scans keep it.
        let wide = try KaspaWalletCLITests.json(
            try await TandemProcess.run("wallet", "addresses", "--gap", "50", "--json", "--profile", dir))
        #expect((wide["addresses"] as? [[String: Any]])?.contains { $0["address"] as? String == beyond } == true)
        let remembered = try KaspaWalletCLITests.json(
            try await TandemProcess.run("wallet", "balance", "--json", "--profile", dir))
        #expect(remembered["balance"] as? Int == 600_000_000 - 550_000_000 - fee + 7_000_000_000)
    }
}
