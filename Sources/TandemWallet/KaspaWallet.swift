public import Foundation
public import KaspaCrypto
public import KaspaNode
import KaspaRPC
public import KaspaTransaction
import TandemBasics
public import TandemProfile

/// A profile's Kaspa wallet over a node (issue 24 item 2): the address's UTXOs kept current,
/// balance, sends built as `kaspa tx build` builds them at the node's fee estimate, and each node
/// refusal handled by its kind (kaspa-node.md §6).
///
/// Sends are serialized: one at a time in this process (the actor, and ``sendGate``) and across
/// processes of the profile (a lock on ``Profile/File/kaspaPending``), so two sends never spend
/// the same coin. What is submitted and not yet accepted is kept in the profile's pending journal
/// (``Profile/File/kaspaPendingJournal``), so the next send — from this process or another —
/// spends its change instead of its inputs; what a process that died left there is checked
/// against the node's mempool at the next connect or send.
public actor KaspaWallet {
    public nonisolated let profile: Profile
    public nonisolated let settings: KaspaNetworkSettings
    public nonisolated let address: KaspaAddress
    public nonisolated let node: KaspaNodeClient
    public nonisolated let retry: WalletRetryPolicy
    let key: PrivateKey
    /// A seed-phrase wallet's chains (nil for a raw key): scanned at every refresh.
    let chains: WalletKeyChains?
    /// The chain addresses the last refresh found holding funds.
    public private(set) var found: [FoundAddress] = []
    var ledger: WalletLedger
    var sending = false
    var sendWaiters: [CheckedContinuation<Void, Never>] = []
    /// True while this wallet follows the node (``apply(_:)`` saw the connect and re-read the
    /// UTXOs): sends then trust the ledger instead of re-reading it.
    var isLive = false
    /// The pending transactions on disk, as this wallet last read or wrote them.
    var journal: PendingJournal
    /// Transactions found pending on disk when the wallet opened, not yet checked against the
    /// node (``checkRecoveredLocked()``).
    var recovered: Set<[UInt8]>
    var feeEstimate: (estimate: RPCFeeEstimate, fetchedAtMs: Int64)?
    /// Notifications that arrived during each ``refresh()`` under way.
    var changesDuringRefresh: [UUID: [RPCUtxosChanged]] = [:]
    /// How long a fee estimate is reused.
    public static let feeEstimateLifetimeMs: Int64 = 10_000

    public init(
        profile: Profile, settings: KaspaNetworkSettings, node: KaspaNodeClient,
        retry: WalletRetryPolicy = WalletRetryPolicy()
    ) throws(WalletError) {
        self.profile = profile
        self.settings = settings
        self.node = node
        self.retry = retry
        do {
            // A seed's chatting key is its receive chain's first key: one derivation serves both.
            if let seed = try profile.walletSeed() {
                let chains = try WalletKeyChains(seed: seed)
                self.chains = chains
                key = try chains.key(.receive, 0)
            } else {
                chains = nil
                key = try profile.walletKey()
            }
        } catch { throw .storage(error.description) }
        address = KaspaAddress(publicKey: key.xOnlyPublicKey, network: settings.network.network)
        journal = try Self.openJournal(profile)
        ledger = WalletLedger(address: address, pending: journal.entries)
        recovered = Set(journal.entries.map(\.id))
    }

    /// The wallet of `profile` on its saved network, reaching nodes through `transport`.
    public init(
        profile: Profile, transport: any WebSocketTransport,
        resolve: (@Sendable (URL) async throws -> URL)? = nil, retry: WalletRetryPolicy = WalletRetryPolicy()
    ) throws(WalletError) {
        let settings: KaspaNetworkSettings
        do {
            guard let saved = try profile.kaspaNetworkSettings() else {
                throw WalletError.notConnected(profile: profile.directory.path)
            }
            settings = saved
        } catch let error as WalletError { throw error } catch { throw .storage(String(describing: error)) }
        let client = KaspaNodeClient(
            configuration: KaspaNodeConfiguration(endpoints: settings.endpoints, network: settings.network),
            transport: transport, resolve: resolve)
        try self.init(profile: profile, settings: settings, node: client, retry: retry)
    }

    // MARK: Reading

    /// Reads the wallet's UTXOs from the node (after a connect, and before a send), and the
    /// pending transactions other processes of the profile recorded. Notifications applied while
    /// the read is under way are applied again on top of it, so an older snapshot never undoes a
    /// newer change. A seed-phrase wallet scans its chains (``discover(_:gap:)``) and follows
    /// every address found holding funds.
    @discardableResult
    public func refresh(gap: UInt32 = KaspaWallet.gapLimit) async throws(WalletError) -> WalletBalance {
        try reloadPendingIfChanged()
        let buffer = UUID()
        changesDuringRefresh[buffer] = []
        defer { changesDuringRefresh[buffer] = nil }
        let info: ServerInfoSnapshot
        let answer: RPCUtxosByAddresses
        do { info = try await node.connect() } catch { throw .node(error) }
        if let chains {
            let scan = try await discover(chains, gap: gap)
            let new = scan.found.map(\.address).filter { ledger.watched[KaspaScriptPublicKey(address: $0)] == nil }
            found = scan.found
            ledger.watch(found.map(\.address))
            answer = RPCUtxosByAddresses(entries: scan.entries)
            if !new.isEmpty {
                do { try await node.watch(new) } catch { throw .node(error) }
            }
        } else {
            do {
                answer = try await node.call(
                    .getUtxosByAddresses, RPCAddresses(addresses: [address]), as: RPCUtxosByAddresses.self)
            } catch { throw .node(error) }
        }
        do {
            try ledger.replaceConfirmed(answer.entries, virtualDaaScore: info.virtualDaaScore)
            for change in changesDuringRefresh[buffer] ?? [] { try ledger.apply(change) }
        } catch { throw .impossibleAmounts(error) }
        // Coinbase maturity needs today's DAA score, not the one read at connect.
        if ledger.immatureBalance > 0 {
            do {
                let fresh = try await node.call(.getServerInfo, as: RPCServerInfo.self)
                ledger.advance(virtualDaaScore: fresh.virtualDaaScore)
            } catch { throw .node(error) }
        }
        return balance
    }

    public var balance: WalletBalance {
        WalletBalance(
            address: address, balance: ledger.balance, spendable: ledger.spendableBalance,
            immature: ledger.immatureBalance, pendingTransactions: ledger.pending.count,
            virtualDaaScore: ledger.virtualDaaScore)
    }

    /// Every address the wallet follows: the chatting address and the chain addresses found.
    public var watchedAddresses: [KaspaAddress] {
        [address] + found.map(\.address).filter { $0 != address }
    }

    /// The confirmed balance held by each address, in sompi.
    public var balances: [KaspaAddress: UInt64] {
        var out: [KaspaAddress: UInt64] = [:]
        for entry in ledger.confirmed.values {
            guard let owner = ledger.watched[entry.scriptPublicKey] else { continue }
            out[owner, default: 0] &+= entry.amount
        }
        return out
    }

    /// The keys of the found addresses other than the chatting one, for signing their inputs.
    var otherKeys: [PrivateKey] { found.filter { $0.address != address }.map(\.key) }

    /// The confirmed UTXOs, in the SDK's `UtxoEntry.to_dict` form, smallest first.
    public var utxos: [KaspaUtxoEntry] { ledger.confirmed.values.sorted(by: WalletLedger.ascending) }

    /// The state the next send builds from.
    public var state: WalletLedger { ledger }

    /// The fee rate of `priority` from the node's estimate (kaspa-node.md §4 "getFeeEstimate"),
    /// read again after ``feeEstimateLifetimeMs``.
    func feeRate(_ priority: FeePriority) async throws(WalletError) -> Double {
        let now = profile.clock.now.rawValue
        if let feeEstimate, now - feeEstimate.fetchedAtMs < Self.feeEstimateLifetimeMs, now >= feeEstimate.fetchedAtMs {
            return priority.feeRate(in: feeEstimate.estimate)
        }
        let estimate: RPCFeeEstimate
        do { estimate = try await node.call(.getFeeEstimate, as: RPCFeeEstimateResponse.self).estimate } catch {
            throw .node(error)
        }
        feeEstimate = (estimate, now)
        return priority.feeRate(in: estimate)
    }

    func enterSendGate() async {
        guard sending else {
            sending = true
            return
        }
        await withCheckedContinuation { sendWaiters.append($0) }
    }

    func leaveSendGate() {
        if sendWaiters.isEmpty { sending = false } else { sendWaiters.removeFirst().resume() }
    }

    // MARK: Following the node

    /// Applies a node event; returns the new balance when it changed what the wallet holds.
    public func apply(_ event: KaspaNodeEvent) async throws(WalletError) -> WalletBalance? {
        switch event {
        case .connected, .resync:
            let before = balance
            let after = try await refresh()
            isLive = true
            try await checkRecovered()
            return after == before ? nil : after
        case .utxosChanged(let change):
            for key in changesDuringRefresh.keys { changesDuringRefresh[key]?.append(change) }
            do { guard try ledger.apply(change) else { return nil } } catch { throw .impossibleAmounts(error) }
            return balance
        case .virtualDaaScoreChanged(let score):
            let before = ledger.spendableBalance
            ledger.advance(virtualDaaScore: score)
            return ledger.spendableBalance == before ? nil : balance
        case .disconnected:
            isLive = false
            return nil
        }
    }
}
