import Foundation
import TandemTesting
import TestSupport
import Testing

/// `tandem wallet send` SIGKILLed at seeded moments against a real `tandem-simnode` (issue 49
/// item 4): the pending journal a killed send leaves is read by the next one, which checks it
/// against the node's mempool, and nothing is stuck, lost or spent twice.
@Suite("Wallet sends killed mid-write (issue 49 item 4)")
struct KaspaWalletKillCLITests {
    @Test("sends killed at any moment leave a journal the next send reads; every acknowledged send is in the mempool")
    func killedSends() async throws {
        let node = try await SimNodeProcess.start()
        let alice = try await KaspaWalletCLITests.profile()
        try await node.fund(alice.address, sompi: 100 * 100_000_000)
        try await KaspaChatPayCLITests.connect(alice.dir, node)
        let send = ["wallet", "send", "--to", alice.address, "--amount", "0.5", "--json", "--profile", alice.dir]

        var random = SeededRandom(seed: 49_004)
        var acknowledged: [String] = []
        var killed = 0
        for _ in 0..<20 {
            let child = try await ChildProcess.launch(TandemProcess.binary, send)
            // A crash at a random moment is the point here: the wait orders nothing.
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...120, using: &random)))
            child.send(SIGKILL)
            let status = try await child.exitStatus(within: 60)
            if status == 0 {
                let receipt = try JSONSerialization.jsonObject(with: child.standardOutput) as? [String: Any]
                acknowledged.append(try #require(receipt?["transactionId"] as? String))
            } else {
                #expect(status == SIGKILL, "a send failed on its own (exit \(status))")
                killed += 1
            }
        }
        #expect(killed > 0, "no send was killed: the moments missed every send")

        // The next send reads what the killed ones left, checks it against the mempool, and
        // goes out.
        let after = try await TandemProcess.run(send)
        #expect(after.status == 0, "\(after.stderrText)")
        let receipt = try JSONSerialization.jsonObject(with: after.stdout) as? [String: Any]
        let last = try #require(receipt?["transactionId"] as? String)
        let mempool = try await node.mempool()
        for id in acknowledged + [last] { #expect(mempool.contains(id), "acknowledged \(id) is not in the mempool") }

        // Every pending transaction is in the mempool and every one there is pending: nothing is
        // stuck reserving a coin, nothing sent is forgotten.
        let balance = try KaspaWalletCLITests.json(
            try await TandemProcess.run("wallet", "balance", "--json", "--profile", alice.dir))
        #expect(balance["pendingTransactions"] as? Int == mempool.count)
        try await node.mine()
        let settled = try KaspaWalletCLITests.json(
            try await TandemProcess.run("wallet", "balance", "--json", "--profile", alice.dir))
        #expect(settled["pendingTransactions"] as? Int == 0)
        #expect(try await TandemProcess.run(send).status == 0)
    }
}
