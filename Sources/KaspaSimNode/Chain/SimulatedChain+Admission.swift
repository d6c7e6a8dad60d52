import KaspaRPC
import KaspaTransaction

extension SimulatedChain {
    /// The checks of a node's RPC submit (kaspa-node.md §6, §7), in the order a rusty-kaspa
    /// mempool runs them: known ids, the transaction in isolation (inputs, zero outputs, standard
    /// scripts and masses), then in context (inputs found, sigops, maturity, amounts, signatures,
    /// storage mass, the fee floor, double spends) and last the mempool's room.
    ///
    /// A transaction with a `null` payload, outpoint, sequence or sig-op count never comes over the
    /// wire (``RPCSubmitTransaction`` refuses it, as a node's decoder does); given one directly, it
    /// is refused as ``SubmitRejection/Reason/incomplete(_:)`` under the zero id.
    func admit(_ transaction: RPCTransaction, checkingCapacity: Bool) throws(SubmitRejection) -> MempoolTransaction {
        var unsigned: KaspaTransaction
        do { unsigned = try transaction.kaspaTransaction { _ in nil } } catch {
            throw SubmitRejection(
                transactionID: [UInt8](repeating: 0, count: 32), reason: .incomplete(error.description))
        }
        let id = unsigned.id
        func rejection(_ reason: SubmitRejection.Reason) -> SubmitRejection {
            SubmitRejection(transactionID: id, reason: reason)
        }
        if accepted[id] != nil { throw rejection(.alreadyAccepted) }
        if mempool.contains(where: { $0.id == id }) { throw rejection(.alreadyInMempool) }

        // In isolation.
        guard !transaction.inputs.isEmpty else { throw rejection(.noInputs) }
        let outpoints = unsigned.inputs.map(\.previousOutpoint)
        guard Set(outpoints).count == outpoints.count else { throw rejection(.duplicateInputs) }
        if let zero = transaction.outputs.firstIndex(where: { $0.value == 0 }) {
            throw rejection(.zeroValueOutput(zero))
        }
        if let odd = transaction.outputs.firstIndex(where: { !Self.isStandard($0.scriptPublicKey.value) }) {
            throw rejection(.nonStandardOutputScript(output: odd))
        }
        let mass = NodeMass(of: transaction)
        if mass.computeMass > Self.maximumStandardMass { throw rejection(.computeMassTooLarge(mass.computeMass)) }
        if mass.transientMass > Self.maximumStandardMass { throw rejection(.transientMassTooLarge(mass.transientMass)) }

        // In context: every input found in the UTXO set or among mempool outputs.
        var spent: [KaspaUtxoEntry] = []
        for outpoint in outpoints {
            guard let entry = utxos[outpoint]?.entry ?? mempoolOutput(outpoint) else { throw rejection(.orphan) }
            spent.append(entry)
        }
        for (index, input) in unsigned.inputs.enumerated() where !spent[index].scriptPublicKey.isScriptHash {
            if input.sigOpCount != 1 {
                throw rejection(.sigOpCount(input: index, given: input.sigOpCount, calculated: 1))
            }
        }
        for (index, entry) in spent.enumerated()
        where entry.isCoinbase && virtualDaaScore < entry.blockDAAScore + Self.coinbaseMaturity {
            throw rejection(
                .immatureCoinbase(
                    input: index, entry.outpoint, blockDaaScore: entry.blockDAAScore, virtualDaaScore: virtualDaaScore))
        }
        let totalIn = spent.reduce(UInt64(0)) { $0.addingReportingOverflow($1.amount).partialValue }
        let totalOut = transaction.outputs.reduce(UInt64(0)) { $0.addingReportingOverflow($1.value).partialValue }
        if totalOut > totalIn { throw rejection(.spendsMoreThanInputs(outputs: totalOut, inputs: totalIn)) }

        for index in unsigned.inputs.indices { unsigned.inputs[index].utxo = spent[index] }
        let populated = unsigned
        do { try populated.verifySignatures() } catch { throw rejection(Self.scriptFailure(error)) }
        let storageMass = KaspaMass(of: populated).storageMass ?? .max
        if storageMass > Self.maximumStandardMass { throw rejection(.storageMassTooLarge(storageMass)) }

        // The fee floor on whichever mass binds, so the text names the real minimum.
        let fee = totalIn - totalOut
        if mass.computeMass >= mass.normalizedTransientMass {
            let minimum = NodeMass.minimumFee(forMass: mass.computeMass)
            if fee < minimum {
                throw rejection(.feeUnderComputeMass(fee: fee, minimum: minimum, mass: mass.computeMass))
            }
        } else {
            let minimum = NodeMass.minimumFee(forMass: mass.normalizedTransientMass)
            if fee < minimum {
                throw rejection(.feeUnderTransientMass(fee: fee, minimum: minimum, mass: mass.normalizedTransientMass))
            }
        }

        for outpoint in outpoints {
            if let spender = mempool.first(where: {
                $0.transaction.inputs.contains { $0.previousOutpoint == outpoint }
            }) {
                throw rejection(.doubleSpend(outpoint, spender: spender.id))
            }
        }
        if checkingCapacity && isMempoolFull { throw rejection(.mempoolFull) }
        return MempoolTransaction(
            id: id, transaction: transaction, fee: fee, mass: mass, storageMass: storageMass, hash: populated.hash,
            spent: spent)
    }

    /// An output of a mempool transaction, as the entry a child spends (DAA score unknown: the
    /// node's "unaccepted" u64::MAX).
    func mempoolOutput(_ outpoint: KaspaOutpoint) -> KaspaUtxoEntry? {
        guard let parent = mempool.first(where: { $0.id == outpoint.transactionID }),
            Int(outpoint.index) < parent.transaction.outputs.count
        else { return nil }
        let output = parent.transaction.outputs[Int(outpoint.index)]
        return KaspaUtxoEntry(
            address: output.scriptPublicKey.value.address(network: network.network), outpoint: outpoint,
            amount: output.value, scriptPublicKey: output.scriptPublicKey.value, blockDAAScore: .max)
    }

    /// Schnorr and ECDSA pay-to-public-key and pay-to-script-hash, script version 0.
    static func isStandard(_ script: KaspaScriptPublicKey) -> Bool {
        script.schnorrPublicKey != nil || script.ecdsaPublicKey != nil || script.isScriptHash
    }

    private static func scriptFailure(_ error: KaspaTransactionError) -> SubmitRejection.Reason {
        switch error {
        case .badSignature: .badSignature
        case .malformedSignatureScript: .unverifiableScript("the signature script is not one push of a signature")
        case .sighashType(let type): .unverifiableScript("invalid hash type \(type)")
        case .scriptHashUnsupported: .unverifiableScript("pay-to-script-hash inputs are not simulated")
        default: .unverifiableScript(error.description)
        }
    }
}
