import Foundation
import KasiaProtocol
public import KaspaCrypto
public import KaspaRPC
import KaspaTransaction
import TandemAPI
import TandemBasics

/// Kasia payloads of Kaspa transactions as the indexer rows a relay delivers (kasia-protocol §4,
/// §10): what a kasia-indexer would store for the transaction, so the messenger's one ingest
/// reads both. Pure: a transaction from a chain walk or the mempool in, a row or nil out.
public enum KaspaChatRows {
    /// The row for `transaction`, or nil when its payload is not a Kasia operation a chat client
    /// reads. The sender is the first input's address (kaspa-node.md §5: the input's
    /// `verboseData.utxoEntry.verboseData.scriptPublicKeyAddress`), else `knownSender`; the
    /// receiver and a payment's amount are the first output's (kasia-protocol §10).
    public static func event(
        _ transaction: RPCTransaction, blockTime: UInt64, network: KaspaNetwork, knownSender: KaspaAddress? = nil
    ) -> RelayEvent? {
        guard let payload = transaction.payload, !payload.isEmpty,
            let envelope = try? KasiaEnvelope(parsing: payload),
            let txID = transactionID(transaction)
        else { return nil }
        let sender = senderAddress(transaction, network: network) ?? knownSender?.description
        let receiver = transaction.outputs.first.flatMap { output in
            output.verboseData?.scriptPublicKeyAddress
                ?? output.scriptPublicKey.value.address(network: network)?.description
        }
        let parsed = envelope.payload
        let body = Hex.encode(parsed.indexerStoredBody)
        var row: RelayEvent.Row
        switch parsed {
        case .handshake, .legacy:
            guard let sender, let receiver else { return nil }
            row = .handshake(
                IndexerHandshake(
                    txID: txID, sender: sender, receiver: receiver, blockTime: blockTime, messagePayload: body))
        case .contextualMessage(let alias, _, _):
            guard let sender else { return nil }
            row = .contextualMessage(
                IndexerContextualMessage(
                    txID: txID, sender: sender, alias: alias.indexerQueryParameter, blockTime: blockTime,
                    messagePayload: body))
        case .payment:
            guard let receiver, let amount = transaction.outputs.first?.value else { return nil }
            row = .payment(
                IndexerPayment(
                    txID: txID, sender: sender, receiver: receiver, blockTime: blockTime, amount: amount,
                    message: body))
        case .selfStash(let scope, _):
            guard let sender else { return nil }
            row = .selfStash(
                IndexerSelfStash(
                    txID: txID, owner: sender, scope: scope.map { Hex.encode(Array($0.utf8)) },
                    blockTime: blockTime,
                    stashedData: body))
        case .broadcast(let channel, let text):
            guard let sender else { return nil }
            row = .broadcast(
                IndexerBroadcast(
                    txID: txID, sender: sender, channel: Hex.encode(Array(channel.utf8)), blockTime: blockTime,
                    message: Hex.encode(Array(text.utf8))))
        }
        row.root = envelope.root.rawValue
        return RelayEvent(row: row, id: "")
    }

    /// The node's id when the answer carries it, else the id computed from the transaction
    /// (signature scripts are not part of it).
    static func transactionID(_ transaction: RPCTransaction) -> String? {
        if let id = transaction.verboseData?.transactionId, !id.isEmpty { return Hex.encode(id) }
        guard let built = try? transaction.kaspaTransaction(utxo: { _ in nil }) else { return nil }
        return Hex.encode(built.id)
    }

    static func senderAddress(_ transaction: RPCTransaction, network: KaspaNetwork) -> String? {
        guard let entry = transaction.inputs.first?.verboseData?.utxoEntry else { return nil }
        return entry.verboseData?.scriptPublicKeyAddress
            ?? entry.scriptPublicKey.flatMap { $0.value.address(network: network)?.description }
    }
}
