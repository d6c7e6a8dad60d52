import KaspaCrypto
import KaspaRPC
import KaspaTransaction
import TandemBasics
import TandemWallet
import Testing

/// The wallet's bookkeeping without a node: confirmed UTXOs from the node, pending transactions
/// reserving their inputs and offering their change, settling when the node shows acceptance.
@Suite("Wallet ledger (issue 24 item 2)")
struct WalletLedgerTests {
    static let key = try? PrivateKey(hex: "1de32ec684f4a3d850f896ba14c68d45f9d345934cdd410d090ab38213f00a7e")
    static let peerKey = try? PrivateKey(hex: "6c1f7d4e3bb0f4a8a4c6e77b5d2f0b9e1a3d5c7e9f1b3d5f7a9c1e3b5d7f9a1c")

    struct Fixture {
        let key: PrivateKey
        let address: KaspaAddress
        let builder: KaspaTransactionBuilder

        init() throws {
            key = try #require(WalletLedgerTests.key)
            address = KaspaAddress(publicKey: key.xOnlyPublicKey, network: .testnet)
            builder = KaspaTransactionBuilder(key: key, network: .testnet)
        }

        func entry(_ byte: UInt8, _ amount: UInt64, daa: UInt64 = 10, coinbase: Bool = false)
            -> RPCUtxosByAddressesEntry
        {
            RPCUtxosByAddressesEntry(
                address: address, outpoint: KaspaOutpoint(transactionID: Array(repeating: byte, count: 32), index: 0),
                utxoEntry: RPCUtxoEntry(
                    amount: amount, scriptPublicKey: KaspaScriptPublicKey(address: address), blockDaaScore: daa,
                    isCoinbase: coinbase))
        }

        /// The UtxosChanged a node sends when `transaction` is accepted: its inputs removed, its
        /// outputs to us added.
        func accepted(_ transaction: KaspaTransaction) -> RPCUtxosChanged {
            let ours = KaspaScriptPublicKey(address: address)
            return RPCUtxosChanged(
                added: transaction.outputs.enumerated().filter { $0.element.scriptPublicKey == ours }.map {
                    RPCUtxosByAddressesEntry(
                        address: address,
                        outpoint: KaspaOutpoint(transactionID: transaction.id, index: UInt32($0.offset)),
                        utxoEntry: RPCUtxoEntry(
                            amount: $0.element.value, scriptPublicKey: ours, blockDaaScore: 20, isCoinbase: false))
                },
                removed: transaction.inputs.compactMap { $0.utxo.map(RPCUtxosByAddressesEntry.init) })
        }
    }

    @Test("twenty messages in a row each spend the previous change, without waiting for a block")
    func chainsChange() throws {
        let f = try Fixture()
        var ledger = WalletLedger(address: f.address)
        try ledger.replaceConfirmed([f.entry(1, 1_000_000_000)], virtualDaaScore: 100)
        var sent: [KaspaTransaction] = []
        for index in 0..<20 {
            let transaction = try f.builder.build(.selfSpend(payload: Array("m\(index)".utf8)), utxos: ledger.spendable)
            #expect(transaction.inputs.count == 1)
            if let previous = sent.last {
                #expect(transaction.inputs[0].previousOutpoint == KaspaOutpoint(transactionID: previous.id, index: 0))
            }
            ledger.submitted(transaction, atMs: Int64(index))
            sent.append(transaction)
        }
        #expect(ledger.pending.count == 20)
        #expect(ledger.spendable.count == 1)
        #expect(ledger.balance == 1_000_000_000)

        // The node accepts the first ten in one block: their net change is the tenth's output.
        let tenth = sent[9]
        try ledger.apply(
            RPCUtxosChanged(
                added: f.accepted(tenth).added, removed: [f.entry(1, 1_000_000_000)]))
        #expect(ledger.pending.map(\.id) == sent[10...].map(\.id))
        #expect(ledger.spendable.map(\.outpoint) == [KaspaOutpoint(transactionID: sent[19].id, index: 0)])
    }

    @Test("UTXO amounts past every sompi there is are refused whole: the ledger keeps what it had")
    func impossibleAmounts() throws {
        let f = try Fixture()
        var ledger = WalletLedger(address: f.address)
        try ledger.replaceConfirmed([f.entry(1, 1_000_000_000)], virtualDaaScore: 100)
        // Two coins that each fit, and together wrap a UInt64 to a small balance.
        #expect(throws: WalletLedger.ImpossibleAmounts.self) {
            try ledger.replaceConfirmed([f.entry(2, .max), f.entry(3, 2)], virtualDaaScore: 101)
        }
        #expect(throws: WalletLedger.ImpossibleAmounts.self) {
            try ledger.apply(RPCUtxosChanged(added: [f.entry(4, KaspaAmount.maximumSompi)], removed: []))
        }
        #expect(ledger.balance == 1_000_000_000)
        #expect(ledger.confirmed.count == 1)
        #expect(ledger.virtualDaaScore == 100)
        // Exactly the supply is a balance.
        try ledger.apply(
            RPCUtxosChanged(added: [f.entry(4, KaspaAmount.maximumSompi - 1_000_000_000)], removed: []))
        #expect(ledger.balance == KaspaAmount.maximumSompi)
    }

    @Test("a pending handshake reserves its input; its change is spendable, the peer's output is not ours")
    func reservesInputs() throws {
        let f = try Fixture()
        let peer = KaspaAddress(publicKey: try #require(Self.peerKey).xOnlyPublicKey, network: .testnet)
        var ledger = WalletLedger(address: f.address)
        try ledger.replaceConfirmed([f.entry(1, 300_000_000), f.entry(2, 50_000_000)], virtualDaaScore: 100)
        let handshake = try f.builder.build(
            .handshake(to: peer, payload: Array("ciph_msg:1:handshake:".utf8)), utxos: ledger.spendable)
        ledger.submitted(handshake, atMs: 0)
        let spent = handshake.inputs.map(\.previousOutpoint)
        #expect(!ledger.spendable.contains { spent.contains($0.outpoint) })
        let change = try #require(handshake.outputs.last)
        #expect(ledger.spendable.contains { $0.outpoint.transactionID == handshake.id && $0.amount == change.value })
        #expect(!ledger.spendable.contains { $0.amount == 20_000_000 })
    }

    @Test("a re-read UTXO set settles what it shows accepted and keeps what is still in the mempool")
    func replaceSettles() throws {
        let f = try Fixture()
        var ledger = WalletLedger(address: f.address)
        try ledger.replaceConfirmed([f.entry(1, 500_000_000), f.entry(2, 400_000_000)], virtualDaaScore: 100)
        let first = try f.builder.build(.selfSpend(payload: [1]), utxos: [f.entry(1, 500_000_000).kaspaEntry])
        let second = try f.builder.build(.selfSpend(payload: [2]), utxos: [f.entry(2, 400_000_000).kaspaEntry])
        ledger.submitted(first, atMs: 0)
        ledger.submitted(second, atMs: 1)
        // The node accepted `first` only.
        try ledger.replaceConfirmed(f.accepted(first).added + [f.entry(2, 400_000_000)], virtualDaaScore: 120)
        #expect(ledger.pending.map(\.id) == [second.id])
    }

    @Test("a dropped pending transaction takes its children with it and frees its inputs")
    func dropCascades() throws {
        let f = try Fixture()
        var ledger = WalletLedger(address: f.address)
        try ledger.replaceConfirmed([f.entry(1, 500_000_000)], virtualDaaScore: 100)
        let parent = try f.builder.build(.selfSpend(payload: [1]), utxos: ledger.spendable)
        ledger.submitted(parent, atMs: 0)
        let child = try f.builder.build(.selfSpend(payload: [2]), utxos: ledger.spendable)
        ledger.submitted(child, atMs: 1)
        ledger.dropPending(id: parent.id)
        #expect(ledger.pending.isEmpty)
        #expect(ledger.spendable.map(\.outpoint) == [f.entry(1, 500_000_000).outpoint])
    }

    @Test("coinbase outputs are spent only 1000 DAA after their block")
    func coinbaseMaturity() throws {
        let f = try Fixture()
        var ledger = WalletLedger(address: f.address)
        try ledger.replaceConfirmed([f.entry(1, 500_000_000, daa: 5000, coinbase: true)], virtualDaaScore: 5999)
        #expect(ledger.spendable.isEmpty)
        #expect(ledger.immatureBalance == 500_000_000)
        ledger.advance(virtualDaaScore: 6000)
        #expect(ledger.spendable.count == 1)
        #expect(ledger.immatureBalance == 0)
    }

    @Test("notifications for other addresses change nothing")
    func ignoresOthers() throws {
        let f = try Fixture()
        let other = KaspaAddress(publicKey: try #require(Self.peerKey).xOnlyPublicKey, network: .testnet)
        var ledger = WalletLedger(address: f.address)
        try ledger.replaceConfirmed([], virtualDaaScore: 1)
        let foreign = RPCUtxosByAddressesEntry(
            address: other, outpoint: KaspaOutpoint(transactionID: Array(repeating: 9, count: 32), index: 0),
            utxoEntry: RPCUtxoEntry(
                amount: 5, scriptPublicKey: KaspaScriptPublicKey(address: other), blockDaaScore: 1, isCoinbase: false))
        let changed = try ledger.apply(RPCUtxosChanged(added: [foreign], removed: []))
        #expect(!changed)
        #expect(ledger.balance == 0)
    }
}
