public import KaspaTransaction

extension Messenger {
    /// From now on, send each payload as a signed Kaspa transaction through the relay, spending
    /// `utxos` (issue 15 item 4; kasia-protocol §12). Only a relay transport does this; over the
    /// Kaspa network every payload is a transaction already, paid from the wallet.
    public func useKaspaTransactions(spending utxos: [KaspaUtxoEntry]) async {
        await (transport as? RelayMessageTransport)?.useKaspaTransactions(spending: utxos)
    }

    /// The UTXOs the next relay-carried Kaspa transaction may spend; nil when submissions are
    /// relay-signed (or the transport is the Kaspa network).
    public var kaspaUTXOPool: [KaspaUtxoEntry]? {
        get async { await (transport as? RelayMessageTransport)?.kaspaUTXOPool }
    }
}
