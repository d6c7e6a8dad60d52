public import KaspaCrypto
public import KaspaRPC
public import KaspaTransaction
import TandemBasics

/// A wallet's UTXOs as the node reports them, plus what this profile submitted that the node has
/// not accepted yet (issue 24 item 2). A value: the node's answers and notifications go in, the
/// coins a new transaction may spend come out; tests drive it without a node.
///
/// - Confirmed entries come from `getUtxosByAddresses` and `UtxosChanged`, which show accepted
///   UTXOs only (kaspa-node.md §4, §8).
/// - A pending transaction reserves the outpoints it spends, and its outputs to us are spendable
///   at once: a node accepts a child of a transaction in its mempool, so twenty messages in a row
///   chain their change without waiting for a block.
/// - A pending transaction settles when the node shows it accepted: one of its outputs appears,
///   or an input it spent is gone (spent by it, or by a conflicting transaction — either way it
///   no longer reserves anything).
/// - Coinbase outputs younger than ``coinbaseMaturity`` DAA are not spent (§7).
public struct WalletLedger: Sendable, Equatable {
    /// 100 s at 10 blocks per second (kaspa-node.md §7).
    public static let coinbaseMaturity: UInt64 = 1000

    /// The chatting address: where change goes.
    public let address: KaspaAddress
    /// Every address of the wallet whose UTXOs count, by script: the chatting address, and an HD
    /// wallet's found receive, change and spending addresses (issue 44 item 2).
    public private(set) var watched: [KaspaScriptPublicKey: KaspaAddress]
    public private(set) var confirmed: [KaspaOutpoint: KaspaUtxoEntry] = [:]
    /// In submission order: a child after its parent.
    public private(set) var pending: [PendingTransaction] = []
    public private(set) var virtualDaaScore: UInt64 = 0
    /// Whether a whole confirmed set was read: until then nothing can be known to have settled.
    public private(set) var hasSnapshot = false

    public init(address: KaspaAddress, pending: [PendingTransaction] = []) {
        self.address = address
        self.pending = pending
        watched = [KaspaScriptPublicKey(address: address): address]
    }

    /// Counts the UTXOs of `addresses` too (an HD wallet's addresses found holding funds).
    public mutating func watch(_ addresses: some Sequence<KaspaAddress>) {
        for address in addresses { watched[KaspaScriptPublicKey(address: address)] = address }
    }

    /// A submitted transaction with its inputs' UTXO entries (to resubmit it, or rebuild).
    public struct PendingTransaction: Sendable, Equatable, Codable {
        public let transaction: KaspaTransaction
        /// When it was first submitted (the profile's clock), for expiry.
        public let submittedAtMs: Int64
        /// The transaction's id, hashed once: settling and saving read it for every pending
        /// transaction on every send and notification.
        public let id: [UInt8]

        public init(transaction: KaspaTransaction, submittedAtMs: Int64) {
            self.transaction = transaction
            self.submittedAtMs = submittedAtMs
            id = transaction.id
        }

        private enum CodingKeys: String, CodingKey { case transaction, submittedAtMs }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                transaction: try container.decode(KaspaTransaction.self, forKey: .transaction),
                submittedAtMs: try container.decode(Int64.self, forKey: .submittedAtMs))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(transaction, forKey: .transaction)
            try container.encode(submittedAtMs, forKey: .submittedAtMs)
        }
    }

    // MARK: What the node says

    /// UTXO amounts that no chain holds (issue 50 item 1): together they are more than every
    /// sompi there is. The node's answer or notification is refused whole; the ledger keeps what
    /// it had, so a lying node never shows as a wrong balance.
    public struct ImpossibleAmounts: Error, Equatable, Sendable, CustomStringConvertible {
        public let entries: Int
        public var description: String {
            "the node reported \(entries) UTXOs of this address that hold more than the 29 billion KAS there are"
        }
    }

    /// The sum of `entries`, checked: nil past ``KaspaAmount/maximumSompi``.
    static func checkedTotal(_ entries: some Sequence<KaspaUtxoEntry>) -> UInt64? {
        var total: UInt64 = 0
        for entry in entries {
            let (sum, overflow) = total.addingReportingOverflow(entry.amount)
            guard !overflow, sum <= KaspaAmount.maximumSompi else { return nil }
            total = sum
        }
        return total
    }

    /// The whole confirmed set, as `getUtxosByAddresses` answers after a (re)connect.
    public mutating func replaceConfirmed(_ entries: [RPCUtxosByAddressesEntry], virtualDaaScore: UInt64)
        throws(ImpossibleAmounts)
    {
        var fresh: [KaspaOutpoint: KaspaUtxoEntry] = [:]
        for entry in entries where isOurs(entry) { fresh[entry.outpoint] = entry.kaspaEntry }
        guard Self.checkedTotal(fresh.values) != nil else { throw ImpossibleAmounts(entries: fresh.count) }
        confirmed = fresh
        hasSnapshot = true
        self.virtualDaaScore = max(self.virtualDaaScore, virtualDaaScore)
        settle()
    }

    /// A `UtxosChanged` notification: entries for other addresses are ignored. Returns whether
    /// anything of ours changed.
    @discardableResult
    public mutating func apply(_ change: RPCUtxosChanged) throws(ImpossibleAmounts) -> Bool {
        var next = confirmed
        var changed = false
        for entry in change.removed where isOurs(entry) {
            changed = next.removeValue(forKey: entry.outpoint) != nil || changed
        }
        var added = false
        for entry in change.added where isOurs(entry) {
            let value = entry.kaspaEntry
            guard next[entry.outpoint] != value else { continue }
            next[entry.outpoint] = value
            changed = true
            added = true
        }
        guard changed else { return false }
        if added, Self.checkedTotal(next.values) == nil { throw ImpossibleAmounts(entries: next.count) }
        confirmed = next
        settle()
        return true
    }

    public mutating func advance(virtualDaaScore: UInt64) {
        self.virtualDaaScore = max(self.virtualDaaScore, virtualDaaScore)
    }

    private func isOurs(_ entry: RPCUtxosByAddressesEntry) -> Bool {
        watched[entry.utxoEntry.scriptPublicKey.value] != nil
    }

    // MARK: What we submit

    /// `transaction` is in a node's mempool (accepted by submit, or "already in the mempool").
    public mutating func submitted(_ transaction: KaspaTransaction, atMs: Int64) {
        let id = transaction.id
        guard !pending.contains(where: { $0.id == id }) else { return }
        pending.append(PendingTransaction(transaction: transaction, submittedAtMs: atMs))
    }

    /// Forgets a pending transaction (the node lost or refused it); its children go with it,
    /// since they spend its outputs.
    public mutating func dropPending(id: [UInt8]) {
        var gone: Set<[UInt8]> = [id]
        pending.removeAll { entry in
            let spendsGone = entry.transaction.inputs.contains { gone.contains($0.previousOutpoint.transactionID) }
            if gone.contains(entry.id) || spendsGone {
                gone.insert(entry.id)
                return true
            }
            return false
        }
    }

    /// Drops pending transactions that the node shows accepted (or superseded), in submission
    /// order so a child settles after its parent.
    private mutating func settle() {
        guard hasSnapshot else { return }
        var outputs = Set<KaspaOutpoint>()
        for entry in pending {
            for index in entry.transaction.outputs.indices {
                outputs.insert(KaspaOutpoint(transactionID: entry.id, index: UInt32(index)))
            }
        }
        var kept: [PendingTransaction] = []
        for entry in pending {
            let id = entry.id
            let accepted = entry.transaction.outputs.indices.contains {
                confirmed[KaspaOutpoint(transactionID: id, index: UInt32($0))] != nil
            }
            let inputGone = entry.transaction.inputs.contains {
                confirmed[$0.previousOutpoint] == nil && !outputs.contains($0.previousOutpoint)
            }
            if accepted || inputGone {
                for index in entry.transaction.outputs.indices {
                    outputs.remove(KaspaOutpoint(transactionID: id, index: UInt32(index)))
                }
            } else {
                kept.append(entry)
            }
        }
        pending = kept
    }

    // MARK: What may be spent

    /// Confirmed, mature entries and pending outputs to us, minus what pending transactions spend.
    public var spendable: [KaspaUtxoEntry] {
        let reserved = Set(pending.flatMap { $0.transaction.inputs.map(\.previousOutpoint) })
        var entries = confirmed.values.filter { !reserved.contains($0.outpoint) && isMature($0) }
        for entry in pending {
            let id = entry.id
            for (index, output) in entry.transaction.outputs.enumerated() {
                guard let owner = watched[output.scriptPublicKey] else { continue }
                let outpoint = KaspaOutpoint(transactionID: id, index: UInt32(index))
                guard !reserved.contains(outpoint) else { continue }
                entries.append(
                    KaspaUtxoEntry(
                        address: owner, outpoint: outpoint, amount: output.value,
                        scriptPublicKey: output.scriptPublicKey,
                        blockDAAScore: virtualDaaScore))
            }
        }
        // Positions are sorted, not entries: a sort moves elements many times, and moving an
        // entry retains and releases each of its arrays (issue 24 "Figures": that was most of a
        // 10,000-UTXO build). The order is the same.
        let order = entries.indices.sorted { Self.ascending(entries[$0], entries[$1]) }
        return order.map { entries[$0] }
    }

    /// By amount, then outpoint: a stable order, so the same state builds the same transaction.
    static func ascending(_ a: KaspaUtxoEntry, _ b: KaspaUtxoEntry) -> Bool {
        if a.amount != b.amount { return a.amount < b.amount }
        if a.outpoint.transactionID != b.outpoint.transactionID {
            return a.outpoint.transactionID.lexicographicallyPrecedes(b.outpoint.transactionID)
        }
        return a.outpoint.index < b.outpoint.index
    }

    public func isMature(_ entry: KaspaUtxoEntry) -> Bool {
        !entry.isCoinbase || virtualDaaScore >= entry.blockDAAScore &+ Self.coinbaseMaturity
    }

    /// The node's balance: every confirmed entry.
    public var balance: UInt64 { confirmed.values.reduce(0) { $0 &+ $1.amount } }

    /// What a new transaction can spend now.
    public var spendableBalance: UInt64 { spendable.reduce(0) { $0 &+ $1.amount } }

    /// Confirmed coinbase outputs not yet mature.
    public var immatureBalance: UInt64 {
        confirmed.values.filter { !isMature($0) }.reduce(0) { $0 &+ $1.amount }
    }
}
