import Foundation
import KaspaCrypto
import KaspaNode
import KaspaRPC
import KaspaSimNode
import KaspaTransaction
import TandemBasics
import TandemProfile
import Testing

@testable import TandemWallet

/// What a process that died mid-send left in the pending journal (issue 49 item 4), checked
/// against the node's mempool by the next wallet of the profile: at its first send, or when it
/// connects.
@Suite("Wallet recovery from the pending journal (issue 49 item 4)")
struct WalletRecoveryTests {
    /// A self-spend and its child, signed at the node's normal fee rate and recorded in the
    /// profile's journal as a send does before it submits, never submitted: the process died.
    static func recordUnsent(_ network: SimulatedNetwork) async throws -> [KaspaTransaction] {
        let wallet = try network.wallet()
        try await wallet.refresh()
        let builder = KaspaTransactionBuilder(key: network.key, network: .testnet, feeRate: 120)
        var ledger = await wallet.state
        let parent = try builder.build(.selfSpend(payload: Array("unsent parent".utf8)), utxos: ledger.spendable)
        ledger.submitted(parent, atMs: 1)
        let child = try builder.build(.selfSpend(payload: Array("unsent child".utf8)), utxos: ledger.spendable)
        ledger.submitted(child, atMs: 2)
        var journal = try KaspaWallet.openJournal(network.profile)
        try journal.save(ledger.pending)
        #expect(await network.node.read { $0.mempool.isEmpty })
        return [parent, child]
    }

    @Test("transactions recorded but never sent go out, parent first, at the next send, which chains on them")
    func unsentGoOutAtTheNextSend() async throws {
        try await SimulatedNetwork.with { network in
            try await network.node.fund(network.address, amount: 1_000_000_000)
            let unsent = try await Self.recordUnsent(network)
            let wallet = try network.wallet()
            let sent = try await wallet.send(.selfSpend(payload: Array("after the crash".utf8)))
            #expect(await network.node.read { $0.mempool.map(\.id) } == unsent.map(\.id) + [sent.transaction.id])
            #expect(sent.transaction.inputs[0].previousOutpoint.transactionID == unsent[1].id)
            #expect(await wallet.state.pending.map(\.id) == unsent.map(\.id) + [sent.transaction.id])
            await network.node.mine()
            #expect(try await wallet.refresh().pendingTransactions == 0)
        }
    }

    @Test("a wallet that connects checks what it found pending, and sends what the mempool lacks")
    func connectChecksTheMempool() async throws {
        try await SimulatedNetwork.with { network in
            try await network.node.fund(network.address, amount: 1_000_000_000)
            let unsent = try await Self.recordUnsent(network)
            let wallet = try network.wallet()
            let info = RPCServerInfo(
                serverVersion: "2.0.1", networkId: .testnet10, hasUtxoIndex: true, isSynced: true, virtualDaaScore: 1)
            _ = try await wallet.apply(.connected(node: network.urls[0], info: info))
            #expect(await network.node.read { $0.mempool.map(\.id) } == unsent.map(\.id))
            // Checked once: a second connect asks the node nothing more of them.
            _ = try await wallet.apply(.connected(node: network.urls[0], info: info))
            #expect(await wallet.recovered.isEmpty)
        }
    }

    @Test("a recorded transaction whose coin is gone is forgotten with its child, and the send goes on")
    func staleRecordsAreForgotten() async throws {
        try await SimulatedNetwork.with { network in
            try await network.node.fund(network.address, amount: 1_000_000_000)
            let unsent = try await Self.recordUnsent(network)
            // Another device of the wallet spent the coin and a block accepted it.
            let other = try network.wallet()
            var journal = try KaspaWallet.openJournal(network.profile)
            try journal.save([])
            let spent = try await other.send(.selfSpend(payload: Array("elsewhere".utf8)))
            await network.node.mine()
            try journal.save(
                unsent.enumerated().map { .init(transaction: $0.element, submittedAtMs: Int64($0.offset)) })

            let wallet = try network.wallet()
            let sent = try await wallet.send(.selfSpend(payload: Array("after the crash".utf8)))
            #expect(await network.node.read { $0.mempool.map(\.id) } == [sent.transaction.id])
            #expect(sent.transaction.inputs[0].previousOutpoint.transactionID == spent.transaction.id)
            #expect(await wallet.state.pending.map(\.id) == [sent.transaction.id])
            #expect(try KaspaWallet.openJournal(network.profile).entries.map(\.id) == [sent.transaction.id])
        }
    }
}
