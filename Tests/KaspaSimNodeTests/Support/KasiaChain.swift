import KaspaCrypto
import KaspaRPC
import KaspaSimNode
import KaspaTransaction
import TandemBasics

/// A ``ChainFixture`` whose wallets write Kasia payloads: each sender spends its last change
/// (a mempool parent when it sent earlier in the same block), so a block can hold several of
/// one sender's transactions. Payloads are raw bytes here, written without the parser the
/// simulated indexer uses.
struct KasiaChain {
    var fixture = ChainFixture()
    private var coins: [KaspaAddress: KaspaUtxoEntry] = [:]

    /// What every transaction pays (well over the fee floor of these sizes).
    static let fee: UInt64 = 1_000_000

    /// Funds each wallet with 10 KAS, a block each.
    init(funding wallets: [TestWallet]) throws {
        for wallet in wallets { coins[wallet.address] = try fixture.fund(wallet.address, 10 * kas) }
    }

    var chain: SimulatedChain { fixture.chain }

    /// `wallet` submits `payload`: `amount` to `receiver` as the first output when there is one,
    /// the change back to itself last. Answers the transaction id.
    @discardableResult
    mutating func send(
        _ payload: [UInt8], from wallet: TestWallet, to receiver: KaspaAddress? = nil, amount: UInt64 = kas / 5
    ) throws -> [UInt8] {
        guard let coin = coins[wallet.address] else { throw KasiaChainError.unfunded }
        let paid = receiver == nil ? 0 : amount
        let outputs = (receiver.map { [($0, paid)] } ?? []) + [(wallet.address, coin.amount - paid - Self.fee)]
        let transaction = try wallet.pay([coin], outputs, payload: payload)
        let id = try fixture.chain.submit(transaction)
        coins[wallet.address] = wallet.output(UInt32(outputs.count - 1), of: transaction)
        return id
    }

    mutating func mine() { _ = fixture.mine() }

    /// The chain block that accepted `id`.
    func block(of id: [UInt8]) throws -> SimulatedBlock {
        guard let block = chain.blocks.first(where: { $0.transactions.contains { $0.id == id } }) else {
            throw KasiaChainError.notAccepted
        }
        return block
    }

    enum KasiaChainError: Error { case unfunded, notAccepted }
}

/// Payload bytes: `text` in ASCII, then `bytes`.
func payload(_ text: String, _ bytes: [UInt8] = []) -> [UInt8] { Array(text.utf8) + bytes }

/// Stand-in sealed bytes (binary, so no reader takes them for hex text), distinct per `seed`.
func sealed(_ seed: UInt8) -> [UInt8] { [0x00, 0xff, seed] + [UInt8](repeating: seed, count: 40) }
