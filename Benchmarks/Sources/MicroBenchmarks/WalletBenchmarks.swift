import Foundation
import KaspaCrypto
import KaspaRPC
import KaspaTransaction
import TandemTesting
import TandemWallet

/// Issue 24's wallet figures without a node: select + build from a 10,000-entry UTXO set
/// (goal < 5 ms) and a 1,000-entry UtxosChanged frame read and applied (goal < 10 ms), beside
/// building and signing one transaction from one UTXO in the same run.
public enum WalletBenchmarks {
    public static func run(samples: Int = 11, utxoCount: Int = 10_000, changeCount: Int = 1_000) throws
        -> BenchReport
    {
        try suite(utxoCount: utxoCount, changeCount: changeCount).report(samples: samples)
    }

    public static func suite(utxoCount: Int = 10_000, changeCount: Int = 1_000) throws -> BenchSuite {
        var random = SeededRandom(seed: 24)
        let key = try PrivateKey(hex: String(repeating: "24", count: 32))
        let address = KaspaAddress(publicKey: key.xOnlyPublicKey, network: .testnet)
        let builder = KaspaTransactionBuilder(key: key, network: .testnet)
        let script = KaspaScriptPublicKey(address: address)
        func entry(_ index: Int) -> RPCUtxosByAddressesEntry {
            RPCUtxosByAddressesEntry(
                address: address,
                outpoint: KaspaOutpoint(
                    transactionID: (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) },
                    index: UInt32(index % 4)),
                utxoEntry: RPCUtxoEntry(
                    amount: UInt64.random(in: 1_000_000...1_000_000_000, using: &random), scriptPublicKey: script,
                    blockDaaScore: UInt64(index), isCoinbase: false))
        }
        let entries = (0..<utxoCount).map(entry)
        var ledger = WalletLedger(address: address)
        try ledger.replaceConfirmed(entries, virtualDaaScore: 1_000_000)
        let payload = [UInt8](repeating: 0x61, count: 160)
        let request = KaspaTransactionBuilder.Request.selfSpend(payload: payload)
        guard let single = entries.max(by: { $0.utxoEntry.amount < $1.utxoEntry.amount })?.kaspaEntry else {
            throw BenchError.setup("no UTXOs")
        }

        // A UtxosChanged for `changeCount` of them spent and as many new ones, as a node writes it.
        let removed = Array(entries.prefix(changeCount))
        let added = (0..<changeCount).map { entry(utxoCount + $0) }
        let change = RPCUtxosChanged(added: added, removed: removed)
        let frame = Data(try RPCFrame.notification(.utxosChanged(change)).utf8)

        return BenchSuite(
            title: "Kaspa wallet",
            baseline: BenchCase("build + sign one transaction from one UTXO (baseline)", iterations: 20) {
                blackHole(try builder.build(request, utxos: [single]))
            },
            others: [
                BenchCase("select + build + sign from \(utxoCount) UTXOs", iterations: 5) {
                    blackHole(try builder.build(request, utxos: ledger.spendable))
                },
                BenchCase("\(changeCount)-entry UtxosChanged: read the frame and apply it", iterations: 5) {
                    guard case .notification(.utxosChanged(let change)) = try RPCFrame.inbound(frame) else {
                        throw BenchError.setup("not a UtxosChanged frame")
                    }
                    var copy = ledger
                    try copy.apply(change)
                    blackHole(copy)
                },
                // The split: the ledger's part alone (the copy of the 10,000-entry ledger that each
                // sample starts from is in both rows; a wallet applies in place).
                BenchCase("  of which: apply the decoded change (and copy the ledger)", iterations: 5) {
                    var copy = ledger
                    try copy.apply(change)
                    blackHole(copy)
                },
            ])
    }
}
