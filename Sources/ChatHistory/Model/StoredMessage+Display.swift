import TandemBasics

extension StoredMessage {
    /// How the row reads to a person, the one text the CLI's history and the chat screen show:
    /// its body, or a placeholder where it cannot be read (our own, sealed to the peer and sent from
    /// another device; a peer's we cannot open); a payment as "paid/received X KAS: memo" (issue 43
    /// item 3), or "payment of X KAS (unverified)" until a chain block accepts it (issue 50 item 7);
    /// the reactions on it after, in brackets (item 4).
    public var displayText: String {
        let outgoing = direction == .outgoing
        var text =
            body.map { String(decoding: $0, as: UTF8.self) }
            ?? (outgoing ? "[sent from another device]" : "[encrypted message]")
        if kind == .payment, let amountSompi {
            let amount = "\(KaspaAmount.kas(fromSompi: amountSompi)) KAS"
            let paid =
                isVerifiedPayment
                ? "\(outgoing ? "paid" : "received") \(amount)" : "payment of \(amount) (unverified)"
            text = text.isEmpty ? paid : paid + ": " + text
        }
        if !reactions.isEmpty { text += " [" + reactions.joined(separator: " ") + "]" }
        return text
    }
}

extension StoredMessage {
    /// A payment a chain block accepted: its row is confirmed (the chain walk or the server saw
    /// it accepted; a reorg that undoes the acceptance makes it unverified again). A payment seen
    /// only through a relay or a mempool is not: its coins may not exist (issue 50 item 7).
    public var isVerifiedPayment: Bool { kind == .payment && status == .confirmed }
}
