import KaspaNode
import KaspaRPC
import TandemBasics
import TandemProfile

/// The profile's pending transactions on disk (``PendingJournal``): read again when another
/// process wrote them, written only by a send, under the profile's lock.
extension KaspaWallet {
    // MARK: The pending journal

    static func openJournal(_ profile: Profile) throws(WalletError) -> PendingJournal {
        try PendingJournal(url: profile.url(.kaspaPendingJournal), legacyURL: profile.url(.kaspaPending))
    }

    /// The path whose lock serializes the profile's sends, across processes.
    var sendLockPath: String { profile.url(.kaspaPending).path + ".lock" }

    /// Reads the journal again when another process wrote to it since this wallet did.
    func reloadPendingIfChanged() throws(WalletError) {
        guard try journal.refresh() else { return }
        var fresh = WalletLedger(address: address, pending: journal.entries)
        fresh.watch(ledger.watched.values)
        if ledger.hasSnapshot {
            do {
                try fresh.replaceConfirmed(
                    ledger.confirmed.values.map(RPCUtxosByAddressesEntry.init), virtualDaaScore: ledger.virtualDaaScore)
            } catch { throw .impossibleAmounts(error) }
        }
        ledger = fresh
    }

    /// Records the ledger's pending list: the lines that changed, appended.
    func savePending() throws(WalletError) {
        try journal.save(ledger.pending)
    }

    // MARK: Recovery

    /// Checks the transactions found pending when the wallet opened against the node, once:
    /// a process that recorded one may have died before it went out, or before the node's
    /// answer came. One the node's mempool holds stays pending; one it does not is offered
    /// again; one it refuses for good is forgotten (``offerAgain(_:)``). Called with the send
    /// gate and the profile's lock held, after a read of the UTXOs settled what was accepted.
    func checkRecoveredLocked() async throws(WalletError) {
        recovered.formIntersection(ledger.pending.map(\.id))
        guard !recovered.isEmpty else { return }
        for entry in ledger.pending where recovered.contains(entry.id) {
            // A parent refused for good takes its children with it.
            guard ledger.pending.contains(where: { $0.id == entry.id }) else { continue }
            try await offerAgain(entry)
            recovered.remove(entry.id)
        }
        recovered = []
        try savePending()
    }

    /// ``checkRecoveredLocked()`` taking its turn among the profile's sends.
    func checkRecovered() async throws(WalletError) {
        guard !recovered.isEmpty else { return }
        await enterSendGate()
        defer { leaveSendGate() }
        do {
            try await ProfileFileLock.withLock(path: sendLockPath) {
                try reloadPendingIfChanged()
                try await checkRecoveredLocked()
            }
        } catch let error as WalletError { throw error } catch { throw .storage(String(describing: error)) }
    }

    /// Leaves `entry` pending when a node's mempool holds it; otherwise submits it again, and
    /// forgets it (with what spends it) when the node refuses it for good.
    func offerAgain(_ entry: WalletLedger.PendingTransaction) async throws(WalletError) {
        do {
            _ = try await node.call(
                .getMempoolEntry, RPCMempoolEntryQuery(transactionId: entry.id), as: RPCMempoolEntryResponse.self)
            return
        } catch {
            guard case .refused = error else { throw .node(error) }
        }
        do {
            _ = try await node.call(
                .submitTransaction, RPCSubmitTransaction(transaction: RPCTransaction(entry.transaction)),
                as: RPCTransactionID.self)
        } catch {
            guard case .refused(_, _, let message) = error else { throw .node(error) }
            // Forgotten only when its inputs are gone or the node refuses it for good; a full
            // mempool, a syncing node or a fee floor may pass, and another node may hold it.
            switch KaspaSubmitRejection(message: message) {
            case .alreadyKnown, .mempoolFull, .nodeSyncing, .feeTooLow: break
            case .staleInputs, .other: ledger.dropPending(id: entry.id)
            }
        }
    }
}
