import KaspaCrypto
import KaspaRPC
import KaspaSimNode
import KaspaTransaction
import TandemBasics

/// A wallet with a fixed key (no randomness), signing as the Tandem builder does.
struct TestWallet {
    let builder: KaspaTransactionBuilder

    init(seed: UInt8) throws {
        builder = KaspaTransactionBuilder(
            key: try PrivateKey(rawRepresentation: [UInt8](repeating: seed, count: 32)), network: .testnet)
    }

    var address: KaspaAddress { builder.address }
    var script: KaspaScriptPublicKey { KaspaScriptPublicKey(address: address) }

    /// `inputs` spent to `outputs`, signed, as a node receives it.
    func pay(
        _ inputs: [KaspaUtxoEntry], _ outputs: [(KaspaAddress, UInt64)], payload: [UInt8] = []
    ) throws -> RPCTransaction {
        RPCTransaction(try signed(inputs, outputs, payload: payload))
    }

    func signed(
        _ inputs: [KaspaUtxoEntry], _ outputs: [(KaspaAddress, UInt64)], payload: [UInt8] = []
    ) throws -> KaspaTransaction {
        let transaction = KaspaTransaction(
            inputs: inputs.map(KaspaTransactionInput.init(spending:)),
            outputs: outputs.map { KaspaTransactionOutput(value: $0.1, scriptPublicKey: .init(address: $0.0)) },
            payload: payload)
        return try builder.sign(transaction)
    }

    /// Output `index` of `transaction` (a mempool parent) as the entry a child spends.
    func output(_ index: UInt32, of transaction: RPCTransaction) -> KaspaUtxoEntry {
        let output = transaction.outputs[Int(index)]
        return KaspaUtxoEntry(
            outpoint: KaspaOutpoint(transactionID: transaction.id, index: index),
            amount: output.value, scriptPublicKey: output.scriptPublicKey.value)
    }
}

/// A chain at a fixed genesis, with a clock the test advances by hand.
struct ChainFixture {
    var chain = SimulatedChain(
        network: .testnet10, genesisDaaScore: 1_000_000, genesisTime: UnixMillis(1_750_000_000_000))
    var time = UnixMillis(1_750_000_000_000)

    /// The next block time: one second later.
    mutating func tick() -> UnixMillis {
        time = UnixMillis(time.rawValue + 1000)
        return time
    }

    /// Funds `address` and answers the new UTXO.
    mutating func fund(_ address: KaspaAddress, _ amount: UInt64, coinbase: Bool = false) throws -> KaspaUtxoEntry {
        let id = try chain.fund(address, amount: amount, coinbase: coinbase, time: tick()).transactionID
        guard let entry = chain.utxo(at: KaspaOutpoint(transactionID: id, index: 0)) else {
            throw FixtureError.missingFunding
        }
        return entry
    }

    mutating func mine() -> ChainUpdate { chain.mineBlock(time: tick()) }

    enum FixtureError: Error { case missingFunding }
}

extension RPCTransaction {
    /// The real transaction id (empty for a chain walk's transaction below High, which has no id
    /// to compute).
    var id: [UInt8] { (try? kaspaTransaction { _ in nil })?.id ?? [] }
}

let kas: UInt64 = 100_000_000
