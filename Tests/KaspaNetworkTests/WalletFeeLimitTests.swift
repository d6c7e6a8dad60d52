import Foundation
import KaspaCrypto
import KaspaRPC
import KaspaSimNode
import KaspaTransaction
import TandemBasics
import TandemWallet
import Testing

/// A node's fee estimate and "fee too low" floor are claims: the wallet never pays above its
/// limits, nor a fee larger than the amount without approval, and a node's UTXO amounts that no
/// chain holds never become a balance (issue 50 item 1).
@Suite("Wallet fee limits against a greedy node (issue 50)")
struct WalletFeeLimitTests {
    static let peer = (try? PrivateKey(hex: SimulatedNetwork.peerKeyHex)).map {
        KaspaAddress(publicKey: $0.xOnlyPublicKey, network: .testnet)
    }

    /// Every bucket at `feerate` sompi per gram.
    static func estimate(_ feerate: Double) -> RPCFeeEstimate {
        RPCFeeEstimate(
            priorityBucket: .init(feerate: feerate, estimatedSeconds: 1),
            normalBuckets: [.init(feerate: feerate, estimatedSeconds: 10)],
            lowBuckets: [.init(feerate: feerate, estimatedSeconds: 60)])
    }

    @Test("a fee rate above the limit submits nothing; a send that allows it pays it")
    func greedyEstimate() async throws {
        let peer = try #require(Self.peer)
        try await SimulatedNetwork.with(feeEstimate: Self.estimate(80_300)) { network in
            try await network.node.fund(network.address, amount: 100 * KaspaAmount.sompiPerKAS)
            let wallet = try network.wallet()
            // 10 KAS: a smaller output's storage mass (KIP-9) makes the fee at this rate larger than it.
            let request = KaspaTransactionBuilder.Request(recipient: peer, amount: 10 * KaspaAmount.sompiPerKAS)
            await #expect(throws: WalletError.feerateAboveLimit(asked: 80_300, limit: 10_000)) {
                _ = try await wallet.send(request)
            }
            #expect(await network.node.read { $0.mempool.isEmpty })
            #expect(await wallet.state.pending.isEmpty)

            let allowed = FeeApproval(maxFeerate: 80_300, maxFee: 10 * KaspaAmount.sompiPerKAS)
            let sent = try await wallet.send(request, approval: allowed)
            let mass = try #require(KaspaMass(of: sent.transaction).mass)
            #expect(sent.fee >= mass * 80_300)
            #expect(await network.node.read { $0.mempool.count } == 1)
        }
    }

    @Test("the profile's limits apply when a send names none")
    func profileLimits() async throws {
        let peer = try #require(Self.peer)
        try await SimulatedNetwork.with(feeEstimate: Self.estimate(500)) { network in
            try await network.node.fund(network.address, amount: 100 * KaspaAmount.sompiPerKAS)
            _ = try network.wallet()
            var settings = try #require(try network.profile.kaspaNetworkSettings())
            settings.feeLimits = WalletFeeLimits(maxFeerate: 400)
            try network.profile.saveKaspaNetworkSettings(settings)
            let wallet = try KaspaWallet(profile: network.profile, settings: settings, node: network.client())
            await #expect(throws: WalletError.feerateAboveLimit(asked: 500, limit: 400)) {
                _ = try await wallet.send(
                    KaspaTransactionBuilder.Request(recipient: peer, amount: KaspaAmount.sompiPerKAS))
            }
            #expect(await network.node.read { $0.mempool.isEmpty })
        }
    }

    @Test("a 'fee too low' floor above the fee limit is not paid: the refused send is all that went out")
    func greedyFloor() async throws {
        try await SimulatedNetwork.with { network in
            try await network.node.fund(network.address, amount: 10_000 * KaspaAmount.sompiPerKAS)
            let wallet = try network.wallet()
            try await wallet.refresh()
            await network.servers[0].switches.rejectNextSubmits(
                1,
                message:
                    "Rejected transaction X: transaction X is not standard: transaction has 1 fees which is under the required amount of 80300000000 for compute mass 2"
            )
            await #expect(throws: WalletError.feeAboveLimit(fee: 80_300_000_000, limit: KaspaAmount.sompiPerKAS)) {
                _ = try await wallet.send(.selfSpend(payload: Array("ciph_msg:1:comm:x".utf8)))
            }
            #expect(await network.node.read { $0.mempool.isEmpty })
            #expect(await wallet.state.pending.isEmpty)
            #expect(try await wallet.refresh().balance == 10_000 * KaspaAmount.sompiPerKAS)
        }
    }

    @Test("a fee larger than the amount needs approval; with it the payment goes out")
    func feeAboveAmount() async throws {
        let peer = try #require(Self.peer)
        // 1,000 sompi per gram is within the default limits; a 0.2 KAS output's storage mass
        // (KIP-9) makes its fee about 0.5 KAS.
        try await SimulatedNetwork.with(feeEstimate: Self.estimate(1_000)) { network in
            try await network.node.fund(network.address, amount: 10 * KaspaAmount.sompiPerKAS)
            let wallet = try network.wallet()
            let request = KaspaTransactionBuilder.Request(recipient: peer, amount: 20_000_000)
            do {
                _ = try await wallet.send(request)
                Issue.record("sent a fee above the amount without approval")
            } catch let error as WalletError {
                guard case .feeAboveAmount(let fee, let amount) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(amount == 20_000_000)
                #expect(fee > amount)
            }
            #expect(await network.node.read { $0.mempool.isEmpty })
            let sent = try await wallet.send(request, approval: FeeApproval(feeAboveAmount: true))
            #expect(sent.fee > sent.amount)
            #expect(await network.node.read { $0.mempool.count } == 1)
        }
    }

    @Test("UTXOs that hold more than every sompi there is are refused, and no balance comes of them")
    func impossibleAmounts() async throws {
        try await SimulatedNetwork.with { network in
            try await network.node.fund(network.address, amount: KaspaAmount.maximumSompi)
            let wallet = try network.wallet()
            #expect(try await wallet.refresh().balance == KaspaAmount.maximumSompi)
            try await network.node.fund(network.address, amount: 1)
            do {
                _ = try await wallet.refresh()
                Issue.record("a balance above the supply was kept")
            } catch let error as WalletError {
                guard case .impossibleAmounts = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
            }
            #expect(await wallet.balance.balance == KaspaAmount.maximumSompi)
        }
    }
}
