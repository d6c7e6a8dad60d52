public import KaspaTransaction

/// The other body of `POST /kasia/transactions` (issue 15 item 4): a signed Kaspa transaction,
/// each input with its UTXO entry, in the SDK's JSON form (`Transaction.to_dict`).
///
/// Wire form: `{"transaction": {…}}`. The relay verifies every input's signature against its
/// UTXO's script and then files the transaction as the kasia-indexer would: sender = the first
/// input's address, receiver and amount = the first output, `tx_id` = the Kaspa transaction id,
/// payload = the transaction's payload.
public struct RelayKaspaSubmission: RequestBody {
    public var transaction: KaspaTransaction

    public init(transaction: KaspaTransaction) {
        self.transaction = transaction
    }

    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case transaction
    }

    public typealias Field = CodingKeys
}
