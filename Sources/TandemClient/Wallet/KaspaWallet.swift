public import Foundation
public import KaspaCrypto
public import KaspaNode
public import KaspaRPC
public import KaspaTransaction
import TandemBasics

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A profile's Kaspa wallet over a node (issue 24 item 2): the address's UTXOs kept current,
/// balance, sends built as `kaspa tx build` builds them at the node's fee estimate, and each node
/// refusal handled by its kind (kaspa-node.md §6).
///
/// Sends are serialized: one at a time in this process (the actor, and ``sendGate``) and across
/// processes of the profile (a lock on ``Profile/File/kaspaPending``), so two sends never spend
/// the same coin. What is submitted and not yet accepted is kept in that file, so the next send —
/// from this process or another — spends its change instead of its inputs.
public actor KaspaWallet {
    public nonisolated let profile: Profile
    public nonisolated let settings: KaspaNetworkSettings
    public nonisolated let address: KaspaAddress
    public nonisolated let node: KaspaNodeClient
    public nonisolated let retry: WalletRetryPolicy
    private let key: PrivateKey
    private var ledger: WalletLedger
    private var sending = false
    private var sendWaiters: [CheckedContinuation<Void, Never>] = []
    /// True while this wallet follows the node (``apply(_:)`` saw the connect and re-read the
    /// UTXOs): sends then trust the ledger instead of re-reading it.
    private var isLive = false
    /// The pending file as this wallet last read or wrote it, to see another process's writes.
    private var pendingFileStamp: PendingFileStamp?
    /// Each pending entry's JSON as last written, by transaction id (``savePending()``).
    private var encodedPending: [[UInt8]: EncodedPending] = [:]
    private var feeEstimate: (estimate: RPCFeeEstimate, fetchedAtMs: Int64)?
    /// Notifications that arrived during each ``refresh()`` under way.
    private var changesDuringRefresh: [UUID: [RPCUtxosChanged]] = [:]
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
        do { key = try profile.walletKey() } catch { throw .storage(error.description) }
        address = KaspaAddress(publicKey: key.xOnlyPublicKey, network: settings.network.network)
        ledger = WalletLedger(address: address)
        ledger = WalletLedger(address: address, pending: try Self.loadPending(profile))
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

    /// Reads the address's UTXOs from the node (after a connect, and before a send), and the
    /// pending transactions other processes of the profile recorded. Notifications applied while
    /// the read is under way are applied again on top of it, so an older snapshot never undoes a
    /// newer change.
    @discardableResult
    public func refresh() async throws(WalletError) -> WalletBalance {
        try reloadPendingIfChanged()
        let buffer = UUID()
        changesDuringRefresh[buffer] = []
        defer { changesDuringRefresh[buffer] = nil }
        do {
            let info = try await node.connect()
            let answer = try await node.call(
                .getUtxosByAddresses, RPCAddresses(addresses: [address]), as: RPCUtxosByAddresses.self)
            ledger.replaceConfirmed(answer.entries, virtualDaaScore: info.virtualDaaScore)
            for change in changesDuringRefresh[buffer] ?? [] { ledger.apply(change) }
            // Coinbase maturity needs today's DAA score, not the one read at connect.
            if ledger.immatureBalance > 0 {
                let fresh = try await node.call(.getServerInfo, as: RPCServerInfo.self)
                ledger.advance(virtualDaaScore: fresh.virtualDaaScore)
            }
        } catch { throw .node(error) }
        return balance
    }

    public var balance: WalletBalance {
        WalletBalance(
            address: address, balance: ledger.balance, spendable: ledger.spendableBalance,
            immature: ledger.immatureBalance, pendingTransactions: ledger.pending.count,
            virtualDaaScore: ledger.virtualDaaScore)
    }

    /// The confirmed UTXOs, in the SDK's `UtxoEntry.to_dict` form, smallest first.
    public var utxos: [KaspaUtxoEntry] { ledger.confirmed.values.sorted(by: WalletLedger.ascending) }

    /// The state the next send builds from.
    public var state: WalletLedger { ledger }

    // MARK: Sending

    /// Builds, signs and submits `request` at `priority`'s fee rate; returns the node's id and the
    /// fee. Refusals by kind: already known → sent under that id; stale inputs → UTXOs re-read,
    /// rebuilt, resubmitted once; fee too low → rebuilt at the floor the node states; mempool
    /// full → retried after ``WalletRetryPolicy/mempoolFullDelays``; anything else → thrown with
    /// the node's reason.
    public func send(_ request: KaspaTransactionBuilder.Request, priority: FeePriority = .normal)
        async throws(WalletError) -> WalletSendResult
    {
        await enterSendGate()
        defer { leaveSendGate() }
        do {
            return try await ProfileFileLock.withLock(path: profile.url(.kaspaPending).path + ".lock") {
                try await sendLocked(request, priority: priority)
            }
        } catch let error as WalletError { throw error } catch { throw .storage(String(describing: error)) }
    }

    private func sendLocked(_ request: KaspaTransactionBuilder.Request, priority: FeePriority) async throws(WalletError)
        -> WalletSendResult
    {
        try reloadPendingIfChanged()
        if !isLive { try await refresh() }
        let feeRate = try await feeRate(priority)
        var builder = KaspaTransactionBuilder(key: key, network: address.network, feeRate: feeRate)
        var transaction = try build(request, builder)
        var staleRetried = false
        var fullDelays = retry.mempoolFullDelays[...]
        while true {
            let id = Hex.encode(transaction.id)
            // Recorded before it goes out: if the answer is lost, the transaction may be in a
            // mempool, and nothing may spend its inputs again (it is offered again later).
            ledger.submitted(transaction, atMs: profile.clock.now.rawValue)
            try savePending()
            let outcome: RejectionOutcome
            do {
                let answer = try await node.call(
                    .submitTransaction, RPCSubmitTransaction(transaction: RPCTransaction(transaction)),
                    as: RPCTransactionID.self)
                return accepted(transaction, id: Hex.encode(answer.transactionId), request: request)
            } catch {
                guard case .refused(_, _, let message) = error else {
                    throw .outcomeUnknown(transactionID: id, reason: error.description)
                }
                outcome = RejectionOutcome(KaspaSubmitRejection(message: message), message: message)
            }
            switch outcome.rejection {
            case .alreadyKnown:
                return accepted(transaction, id: id, request: request)
            case .mempoolFull, .nodeSyncing:
                // The same transaction goes again after the wait; it stays pending meanwhile.
                guard let delay = fullDelays.popFirst() else {
                    try forget(transaction)
                    throw .rejected(transactionID: id, reason: outcome.message)
                }
                try? await profile.clock.sleep(until: profile.clock.now.advanced(by: delay), tolerance: nil)
                continue
            default:
                try forget(transaction)
            }
            switch outcome.rejection {
            case .staleInputs where !staleRetried:
                staleRetried = true
                try await resubmitOrDropPending()
                transaction = try build(request, builder)
            case .feeTooLow(let required?) where builder.minimumFee < required:
                builder.minimumFee = required
                transaction = try build(request, builder)
            default:
                throw .rejected(transactionID: id, reason: outcome.message)
            }
        }
    }

    /// A refused transaction leaves the pending list (with anything spending its outputs).
    private func forget(_ transaction: KaspaTransaction) throws(WalletError) {
        ledger.dropPending(id: transaction.id)
        try savePending()
    }

    private struct RejectionOutcome {
        var rejection: KaspaSubmitRejection
        var message: String

        init(_ rejection: KaspaSubmitRejection, message: String) {
            self.rejection = rejection
            self.message = message
        }
    }

    private func build(_ request: KaspaTransactionBuilder.Request, _ builder: KaspaTransactionBuilder)
        throws(WalletError) -> KaspaTransaction
    {
        do { return try builder.build(request, utxos: ledger.spendable) } catch { throw .build(error) }
    }

    private func accepted(_ transaction: KaspaTransaction, id: String, request: KaspaTransactionBuilder.Request)
        -> WalletSendResult
    {
        let inputs = transaction.inputs.reduce(UInt64(0)) { $0 &+ ($1.utxo?.amount ?? 0) }
        let outputs = transaction.outputs.reduce(UInt64(0)) { $0 &+ $1.value }
        let script = KaspaScriptPublicKey(address: address)
        let change = transaction.outputs.filter { $0.scriptPublicKey == script }.reduce(UInt64(0)) { $0 &+ $1.value }
        return WalletSendResult(
            transactionID: id, fee: inputs &- outputs, amount: request.recipient == nil ? 0 : request.amount,
            recipient: request.recipient, change: request.recipient == nil ? 0 : change,
            inputs: transaction.inputs.count, transaction: transaction)
    }

    /// After a stale-inputs refusal: each pending transaction the node no longer holds is sent
    /// again (a node failed over to may never have seen it); one it refuses is forgotten.
    private func resubmitOrDropPending() async throws(WalletError) {
        try await refresh()
        for entry in ledger.pending {
            do {
                _ = try await node.call(
                    .getMempoolEntry, RPCMempoolEntryQuery(transactionId: entry.id), as: RPCMempoolEntryResponse.self)
                continue
            } catch {
                guard case .refused = error else { throw .node(error) }
            }
            do {
                _ = try await node.call(
                    .submitTransaction, RPCSubmitTransaction(transaction: RPCTransaction(entry.transaction)),
                    as: RPCTransactionID.self)
            } catch {
                guard case .refused(_, _, let message) = error else { throw .node(error) }
                // Forgotten only when its inputs are gone or the node refuses it for good; a
                // full mempool, a syncing node or a fee floor may pass, and another node may
                // hold it.
                switch KaspaSubmitRejection(message: message) {
                case .alreadyKnown, .mempoolFull, .nodeSyncing, .feeTooLow: break
                case .staleInputs, .other: ledger.dropPending(id: entry.id)
                }
            }
        }
        try savePending()
    }

    /// The fee rate of `priority` from the node's estimate (kaspa-node.md §4 "getFeeEstimate"),
    /// read again after ``feeEstimateLifetimeMs``.
    private func feeRate(_ priority: FeePriority) async throws(WalletError) -> Double {
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

    private func enterSendGate() async {
        guard sending else {
            sending = true
            return
        }
        await withCheckedContinuation { sendWaiters.append($0) }
    }

    private func leaveSendGate() {
        if sendWaiters.isEmpty { sending = false } else { sendWaiters.removeFirst().resume() }
    }

    // MARK: Following the node

    /// Applies a node event; returns the new balance when it changed what the wallet holds.
    public func apply(_ event: KaspaNodeEvent) async throws(WalletError) -> WalletBalance? {
        switch event {
        case .connected:
            let before = balance
            let after = try await refresh()
            isLive = true
            return after == before ? nil : after
        case .utxosChanged(let change):
            for key in changesDuringRefresh.keys { changesDuringRefresh[key]?.append(change) }
            guard ledger.apply(change) else { return nil }
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

    // MARK: The pending file

    private static func loadPending(_ profile: Profile) throws(WalletError) -> [WalletLedger.PendingTransaction] {
        let url = profile.url(.kaspaPending)
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            return try JSONDecoder().decode([WalletLedger.PendingTransaction].self, from: Data(contentsOf: url))
        } catch {
            throw .storage("\(url.path) is damaged: \(error)")
        }
    }

    /// The pending file's size and modification time: a cheap test for another process's write.
    private struct PendingFileStamp: Equatable {
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64
        /// Atomic writes replace the file: a new inode even within one timestamp tick.
        var inode: UInt64
    }

    /// One `stat` call: FileManager's attributes build a dictionary of boxed values, twice per send.
    private func currentPendingStamp() -> PendingFileStamp? {
        var info = stat()
        guard stat(profile.url(.kaspaPending).path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let modified = info.st_mtimespec
        #else
            let modified = info.st_mtim
        #endif
        return PendingFileStamp(
            size: Int64(info.st_size), modifiedSeconds: Int64(modified.tv_sec),
            modifiedNanoseconds: Int64(modified.tv_nsec), inode: UInt64(info.st_ino))
    }

    /// Reads the pending file again when another process wrote it since this wallet did.
    private func reloadPendingIfChanged() throws(WalletError) {
        let stamp = currentPendingStamp()
        guard stamp == nil || stamp != pendingFileStamp else { return }
        try reloadPending()
        pendingFileStamp = stamp
    }

    private func reloadPending() throws(WalletError) {
        var fresh = WalletLedger(address: address, pending: try Self.loadPending(profile))
        if ledger.hasSnapshot {
            fresh.replaceConfirmed(
                ledger.confirmed.values.map(RPCUtxosByAddressesEntry.init), virtualDaaScore: ledger.virtualDaaScore)
        }
        ledger = fresh
    }

    /// Writes the pending list byte for byte as `JSONEncoder` (sorted keys) writes the array —
    /// `[`, the entries' JSON separated by `,`, `]` — reusing each entry's JSON from the last
    /// write while the entry is unchanged: a send encodes its own transaction, not every pending
    /// one again (issue 24 "Figures": re-encoding was most of a send's CPU at 20 pending).
    private func savePending() throws(WalletError) {
        let url = profile.url(.kaspaPending)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            var encoded: [[UInt8]: EncodedPending] = [:]
            var file = Data([UInt8(ascii: "[")])
            for (index, entry) in ledger.pending.enumerated() {
                let id = entry.id
                let json: Data
                if let cached = encodedPending[id], cached.entry == entry {
                    json = cached.json
                } else {
                    json = try encoder.encode(entry)
                }
                if index > 0 { file.append(UInt8(ascii: ",")) }
                file.append(json)
                encoded[id] = EncodedPending(entry: entry, json: json)
            }
            file.append(UInt8(ascii: "]"))
            encodedPending = encoded
            try file.write(to: url, options: .atomic)
        } catch { throw .storage("\(url.path): \(error)") }
        pendingFileStamp = currentPendingStamp()
    }

    /// A pending entry and its JSON in the pending file.
    private struct EncodedPending {
        var entry: WalletLedger.PendingTransaction
        var json: Data
    }
}

/// What a wallet holds, in sompi.
public struct WalletBalance: Sendable, Equatable {
    public var address: KaspaAddress
    /// Every confirmed UTXO (the node's `getBalanceByAddress`).
    public var balance: UInt64
    /// What a new transaction can spend now: mature confirmed coins not reserved, plus pending change.
    public var spendable: UInt64
    public var immature: UInt64
    public var pendingTransactions: Int
    public var virtualDaaScore: UInt64
}

/// A submitted transaction.
public struct WalletSendResult: Sendable, Equatable {
    public var transactionID: String
    public var fee: UInt64
    public var amount: UInt64
    public var recipient: KaspaAddress?
    public var change: UInt64
    public var inputs: Int
    public var transaction: KaspaTransaction
}

/// `--priority low|normal|high`: which bucket of the node's fee estimate to pay.
public enum FeePriority: String, Sendable, CaseIterable, Codable {
    case low, normal, high

    /// Priority = the priority bucket, normal = the first normal bucket, low = the first low
    /// bucket (kaspa-node.md §4); a missing bucket falls back to the next higher one.
    public func feeRate(in estimate: RPCFeeEstimate) -> Double {
        switch self {
        case .high: estimate.priorityBucket.feerate
        case .normal: estimate.normalBuckets.first?.feerate ?? estimate.priorityBucket.feerate
        case .low:
            estimate.lowBuckets.first?.feerate ?? estimate.normalBuckets.first?.feerate
                ?? estimate.priorityBucket.feerate
        }
    }
}

/// How long a wallet waits out a full mempool (or a syncing node) before giving up.
public struct WalletRetryPolicy: Sendable, Equatable {
    public var mempoolFullDelays: [Duration]

    public init(mempoolFullDelays: [Duration] = [.seconds(1), .seconds(2), .seconds(4)]) {
        self.mempoolFullDelays = mempoolFullDelays
    }
}
