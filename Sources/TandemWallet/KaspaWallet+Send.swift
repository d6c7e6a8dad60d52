import KaspaNode
import KaspaRPC
public import KaspaTransaction
import TandemBasics
import TandemProfile

/// Sends: built at the node's fee estimate, recorded as pending before they go out, each node
/// refusal handled by its kind (issue 24 item 2, kaspa-node.md §6).
extension KaspaWallet {
    // MARK: Sending

    /// Builds, signs and submits `request` at `priority`'s fee rate; returns the node's id and the
    /// fee. Refusals by kind: already known → sent under that id; stale inputs → UTXOs re-read,
    /// rebuilt, resubmitted once; fee too low → rebuilt at the floor the node states; mempool
    /// full → retried after ``WalletRetryPolicy/mempoolFullDelays``; anything else → thrown with
    /// the node's reason.
    ///
    /// Never pays more than `approval` allows (issue 50 item 1): a fee rate or fee above its
    /// limits, from the estimate or from a "fee too low" floor, is refused before anything goes
    /// out, and so is a fee larger than the amount sent to a recipient unless it allows that.
    public func send(
        _ request: KaspaTransactionBuilder.Request, priority: FeePriority = .normal,
        approval: FeeApproval = FeeApproval()
    ) async throws(WalletError) -> WalletSendResult {
        await enterSendGate()
        defer { leaveSendGate() }
        let approval = SendApproval(
            limits: approval.limits(over: settings.feeLimits), feeAboveAmount: approval.feeAboveAmount)
        do {
            return try await ProfileFileLock.withLock(path: sendLockPath) {
                try await sendLocked(request, priority: priority, approval: approval)
            }
        } catch let error as WalletError { throw error } catch { throw .storage(String(describing: error)) }
    }

    /// The fee `request` would pay now at `priority`'s rate, built from the wallet's UTXOs and
    /// signed but never submitted or recorded (issue 51 item 3: "fee ≈ …" before a person
    /// agrees to spend). The send itself may pay a little more or less: the estimate or the UTXOs
    /// may change in between.
    public func estimateFee(_ request: KaspaTransactionBuilder.Request, priority: FeePriority = .normal)
        async throws(WalletError) -> UInt64
    {
        try reloadPendingIfChanged()
        if !isLive { try await refresh() }
        let builder = KaspaTransactionBuilder(
            key: key, network: address.network, feeRate: try await feeRate(priority), otherKeys: otherKeys)
        return try Self.fee(of: build(request, builder))
    }

    /// What one send may pay.
    struct SendApproval {
        var limits: WalletFeeLimits
        var feeAboveAmount: Bool

        /// Throws when `transaction`'s fee breaks a limit.
        func check(_ transaction: KaspaTransaction, _ request: KaspaTransactionBuilder.Request) throws(WalletError) {
            let fee = try KaspaWallet.fee(of: transaction)
            if let breach = limits.breach(fee: fee) { throw breach }
            if request.recipient != nil, fee > request.amount, !feeAboveAmount {
                throw .feeAboveAmount(fee: fee, amount: request.amount)
            }
        }
    }

    func sendLocked(_ request: KaspaTransactionBuilder.Request, priority: FeePriority, approval: SendApproval)
        async throws(WalletError) -> WalletSendResult
    {
        try reloadPendingIfChanged()
        if !isLive { try await refresh() }
        try await checkRecoveredLocked()
        let feeRate = try await feeRate(priority)
        if let breach = approval.limits.breach(feerate: feeRate) { throw breach }
        var builder = KaspaTransactionBuilder(
            key: key, network: address.network, feeRate: feeRate, otherKeys: otherKeys)
        var transaction = try build(request, builder)
        try approval.check(transaction, request)
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
                try approval.check(transaction, request)
            case .feeTooLow(let required?) where builder.minimumFee < required:
                if let breach = approval.limits.breach(fee: required) { throw breach }
                builder.minimumFee = required
                transaction = try build(request, builder)
                try approval.check(transaction, request)
            default:
                throw .rejected(transactionID: id, reason: outcome.message)
            }
        }
    }

    /// A refused transaction leaves the pending list (with anything spending its outputs).
    func forget(_ transaction: KaspaTransaction) throws(WalletError) {
        ledger.dropPending(id: transaction.id)
        try savePending()
    }

    struct RejectionOutcome {
        var rejection: KaspaSubmitRejection
        var message: String

        init(_ rejection: KaspaSubmitRejection, message: String) {
            self.rejection = rejection
            self.message = message
        }
    }

    func build(_ request: KaspaTransactionBuilder.Request, _ builder: KaspaTransactionBuilder)
        throws(WalletError) -> KaspaTransaction
    {
        if ledger.spendable.isEmpty, ledger.confirmed.isEmpty { throw .emptyWallet(address: address.description) }
        do { return try builder.build(request, utxos: ledger.spendable) } catch { throw .build(error) }
    }

    /// What `transaction` leaves to the fee: its inputs' amounts less its outputs', checked.
    static func fee(of transaction: KaspaTransaction) throws(WalletError) -> UInt64 {
        var inputs: UInt64 = 0
        var outputs: UInt64 = 0
        for input in transaction.inputs {
            let (sum, overflow) = inputs.addingReportingOverflow(input.utxo?.amount ?? 0)
            guard !overflow else { throw .invalidRequest("the transaction's inputs sum past UInt64") }
            inputs = sum
        }
        for output in transaction.outputs {
            let (sum, overflow) = outputs.addingReportingOverflow(output.value)
            guard !overflow else { throw .invalidRequest("the transaction's outputs sum past UInt64") }
            outputs = sum
        }
        guard inputs >= outputs else { throw .invalidRequest("the transaction's outputs exceed its inputs") }
        return inputs - outputs
    }

    func accepted(_ transaction: KaspaTransaction, id: String, request: KaspaTransactionBuilder.Request)
        -> WalletSendResult
    {
        let script = KaspaScriptPublicKey(address: address)
        // Checked before it was submitted (SendApproval), and change is part of the outputs.
        let fee = (try? Self.fee(of: transaction)) ?? 0
        let change = transaction.outputs.filter { $0.scriptPublicKey == script }.reduce(UInt64(0)) { $0 + $1.value }
        return WalletSendResult(
            transactionID: id, fee: fee, amount: request.recipient == nil ? 0 : request.amount,
            recipient: request.recipient, change: request.recipient == nil ? 0 : change,
            inputs: transaction.inputs.count, transaction: transaction)
    }

    /// After a stale-inputs refusal: each pending transaction the node no longer holds is sent
    /// again (a node failed over to may never have seen it); one it refuses is forgotten.
    func resubmitOrDropPending() async throws(WalletError) {
        try await refresh()
        for entry in ledger.pending where ledger.pending.contains(where: { $0.id == entry.id }) {
            try await offerAgain(entry)
        }
        try savePending()
    }
}
