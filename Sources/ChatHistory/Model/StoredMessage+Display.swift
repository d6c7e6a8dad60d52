import TandemBasics

extension StoredMessage {
    /// How the row reads to a person, the one text the CLI's history and the chat screen show:
    /// its body, or a placeholder where it cannot be read (our own, sealed to the peer and sent from
    /// another device; a peer's we cannot open); a payment as "paid/received X KAS: memo" (issue 43
    /// item 3); the reactions on it after, in brackets (item 4).
    public var displayText: String {
        let outgoing = direction == .outgoing
        var text =
            body.map { String(decoding: $0, as: UTF8.self) }
            ?? (outgoing ? "[sent from another device]" : "[encrypted message]")
        if kind == .payment, let amountSompi {
            let paid = "\(outgoing ? "paid" : "received") \(KaspaAmount.kas(fromSompi: amountSompi)) KAS"
            text = text.isEmpty ? paid : paid + ": " + text
        }
        if !reactions.isEmpty { text += " [" + reactions.joined(separator: " ") + "]" }
        return text
    }
}
