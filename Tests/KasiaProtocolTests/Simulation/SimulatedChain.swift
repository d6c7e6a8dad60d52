import KasiaProtocol
import KaspaCrypto

/// An in-process stand-in for the Kaspa chain plus indexer: an append-only list of
/// transactions whose payloads are real Kasia bytes.
final class SimulatedChain {
    struct Transaction {
        let id: Int
        let sender: KaspaAddress
        /// The first output's address (handshakes pay the recipient; messages pay the sender back).
        let recipient: KaspaAddress
        let payload: [UInt8]
    }

    private(set) var transactions: [Transaction] = []

    func submit(from sender: KaspaAddress, to recipient: KaspaAddress, payload: [UInt8]) {
        transactions.append(Transaction(id: transactions.count, sender: sender, recipient: recipient, payload: payload))
    }

    /// A contextual message as every client writes it: a self-spend whose payload is
    /// `ciph_msg:1:comm:<alias>:` + base64 of the text sealed to `recipient`.
    func submitMessage(_ text: String, alias: Alias, from sender: KaspaAddress, to recipient: KaspaAddress) throws {
        let sealed = try KasiaCipher.seal(text, to: recipient)
        submit(
            from: sender, to: sender,
            payload: KasiaPayload.contextualMessage(alias: alias, sealed: sealed, encoding: .base64).encoded(
                root: .ciphMsg))
    }

    /// A handshake: a payment to `recipient` carrying the JSON sealed to it.
    func submitHandshake(_ json: String, from sender: KaspaAddress, to recipient: KaspaAddress) throws {
        submit(
            from: sender, to: recipient,
            payload: KasiaPayload.handshake(sealed: try KasiaCipher.seal(json, to: recipient)).encoded(root: .ciphMsg))
    }

    /// Transactions after `cursor`, advancing it.
    func read(after cursor: inout Int) -> ArraySlice<Transaction> {
        defer { cursor = transactions.count }
        return transactions[cursor...]
    }
}

/// What every simulated participant offers the scenarios.
protocol SimulatedPeer: AnyObject {
    var address: KaspaAddress { get }
    /// Texts received, per sender, in arrival order.
    var inbox: [KaspaAddress: [String]] { get }
    func sendHandshake(to peer: KaspaAddress, on chain: SimulatedChain, isResponse: Bool) throws
    /// Sends `text`; returns false when this client would not send it.
    func send(_ text: String, to peer: KaspaAddress, on chain: SimulatedChain) throws -> Bool
    func poll(_ chain: SimulatedChain) throws
}

extension SimulatedPeer {
    func received(from peer: KaspaAddress) -> [String] { inbox[peer] ?? [] }
}

/// Decodes a contextual message for `recipientKey` if `tx` carries one.
func contextualMessage(_ tx: SimulatedChain.Transaction, key: PrivateKey) -> (alias: Alias, text: String)? {
    guard case .contextualMessage(let alias, let sealed, _)? = try? KasiaPayload(parsing: tx.payload),
        let text = try? KasiaCipher.open(sealed, using: key)
    else { return nil }
    return (alias, text)
}

/// Decodes a handshake plaintext sent to `key`'s owner, if `tx` carries one.
func handshakePlaintext(_ tx: SimulatedChain.Transaction, key: PrivateKey, me: KaspaAddress) -> String? {
    guard tx.recipient == me, tx.sender != me,
        case .handshake(let sealed)? = try? KasiaPayload(parsing: tx.payload)
    else { return nil }
    return try? KasiaCipher.open(sealed, using: key)
}
