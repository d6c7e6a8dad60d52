import KaspaCrypto
public import KaspaTransaction
import TandemAPI

extension Messenger {
    /// From now on, send each payload as a signed Kaspa transaction spending `utxos` (issue 15
    /// item 4; kasia-protocol §12): handshakes pay 0.2 KAS to the peer with change back,
    /// messages and self-stashes are self-spends. Each transaction's change becomes a UTXO of
    /// the pool, so a handshake and its self-stash can follow one another.
    public func useKaspaTransactions(spending utxos: [KaspaUtxoEntry]) {
        kaspaUTXOs = utxos
    }

    /// The UTXOs the next Kaspa transaction may spend; nil when submissions are relay-signed.
    public var kaspaUTXOPool: [KaspaUtxoEntry]? { kaspaUTXOs }

    /// Builds, signs and submits a Kaspa transaction carrying `payload`.
    func submitTransaction(_ payload: [UInt8], receiver: KaspaAddress?, amount: UInt64?) async throws -> RelayReceipt {
        let builder = KaspaTransactionBuilder(key: key)
        let request =
            receiver.map {
                KaspaTransactionBuilder.Request(
                    recipient: $0, amount: amount ?? Self.handshakeAmountSompi, payload: payload)
            } ?? .selfSpend(payload: payload)
        let transaction: KaspaTransaction
        do { transaction = try builder.build(request, utxos: kaspaUTXOs ?? []) } catch {
            throw MessagingError.signing("Kaspa transaction: \(error.description)")
        }
        let receipt = try await retryingRateLimits { () async throws(RelayClientError) in
            try await relay.submit(RelayKaspaSubmission(transaction: transaction))
        }
        spend(transaction)
        return receipt
    }

    /// Removes the spent UTXOs from the pool and adds the outputs paid back to us.
    private func spend(_ transaction: KaspaTransaction) {
        let spent = Set(transaction.inputs.map(\.previousOutpoint))
        var pool = (kaspaUTXOs ?? []).filter { !spent.contains($0.outpoint) }
        let ours = KaspaScriptPublicKey(address: address)
        let id = transaction.id
        for (index, output) in transaction.outputs.enumerated() where output.scriptPublicKey == ours {
            pool.append(
                KaspaUtxoEntry(
                    address: address, outpoint: KaspaOutpoint(transactionID: id, index: UInt32(index)),
                    amount: output.value, scriptPublicKey: output.scriptPublicKey))
        }
        kaspaUTXOs = pool
    }
}
