import Foundation
import KasiaIndex
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
    /// reads. The indexed kinds are read by the one indexer model the server and the simulated
    /// node share (``KasiaIndexRow``): the sender is the first input's address (kaspa-node.md §5),
    /// else `knownSender`; the receiver and a payment's amount are the first output's
    /// (kasia-protocol §10). Broadcasts, which no indexer keeps, are read here. `acceptingBlock`
    /// names the chain block that accepted the transaction (nil: seen in a mempool); a payment
    /// carries it, and only an accepted payment is verified (issue 50 item 7).
    public static func event(
        _ transaction: RPCTransaction, blockTime: UInt64, network: KaspaNetwork, acceptingBlock: String? = nil,
        knownSender: KaspaAddress? = nil
    ) -> IndexerEvent? {
        guard let payload = transaction.payload, !payload.isEmpty else { return nil }
        guard
            let indexed = KasiaIndexRow(
                transaction: transaction, fallbackTime: blockTime, acceptance: nil, network: network,
                knownSender: knownSender)
        else { return broadcast(transaction, payload: payload, blockTime: blockTime, network: network, knownSender) }
        var row: IndexerEvent.Row
        let body = Hex.encode(indexed.body)
        switch indexed.kind {
        case .handshake:
            guard let sender = indexed.sender, let receiver = indexed.receiver else { return nil }
            row = .handshake(
                IndexerHandshake(
                    txID: indexed.txID, sender: sender, receiver: receiver, blockTime: indexed.blockTime,
                    messagePayload: body))
        case .contextualMessage:
            guard let sender = indexed.sender else { return nil }
            row = .contextualMessage(
                IndexerContextualMessage(
                    txID: indexed.txID, sender: sender, alias: indexed.tag, blockTime: indexed.blockTime,
                    messagePayload: body))
        case .payment:
            guard let receiver = indexed.receiver else { return nil }
            row = .payment(
                IndexerPayment(
                    txID: indexed.txID, sender: indexed.sender, receiver: receiver, blockTime: indexed.blockTime,
                    amount: indexed.amount, message: body, acceptingBlock: acceptingBlock))
        case .selfStash:
            guard let sender = indexed.sender else { return nil }
            row = .selfStash(
                IndexerSelfStash(
                    txID: indexed.txID, owner: sender, scope: indexed.tag, blockTime: indexed.blockTime,
                    stashedData: body))
        }
        row.root = indexed.root.rawValue
        return IndexerEvent(row: row, id: "")
    }

    /// A `bcast` transaction as the relay's broadcast row.
    private static func broadcast(
        _ transaction: RPCTransaction, payload: [UInt8], blockTime: UInt64, network: KaspaNetwork,
        _ knownSender: KaspaAddress?
    ) -> IndexerEvent? {
        guard payload.count <= KasiaIndexRow.maximumPayloadBytes,
            !KasiaIndexRow.namesNonAddress(
                transaction.inputs.first?.verboseData?.utxoEntry?.verboseData, network: network),
            let envelope = try? KasiaEnvelope(parsing: payload),
            case .broadcast(let channel, let text) = envelope.payload,
            let txID = KasiaIndexRow.transactionID(transaction),
            let sender = KasiaIndexRow.sender(of: transaction, network: network) ?? knownSender?.description
        else { return nil }
        let included = transaction.verboseData?.blockTime ?? 0
        var row = IndexerEvent.Row.broadcast(
            IndexerBroadcast(
                txID: txID, sender: sender, channel: Hex.encode(Array(channel.utf8)),
                blockTime: included > 0 ? included : blockTime, message: Hex.encode(Array(text.utf8))))
        row.root = envelope.root.rawValue
        return IndexerEvent(row: row, id: "")
    }
}
