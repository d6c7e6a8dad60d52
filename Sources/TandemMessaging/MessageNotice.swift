public import Contacts
public import KaspaCrypto
import TandemBasics

/// What a notification of a new message says (issue 48 item 3): who wrote, and — only when the
/// person asked for previews — what. A screen or a desktop shows it; the library decides whether
/// a message deserves one, so every client notifies alike.
public struct MessageNotice: Sendable, Equatable {
    /// The peer who wrote.
    public let peer: KaspaAddress
    /// The contact's name (or the address, shortened).
    public let title: String
    /// The text with a preview; otherwise what arrived, never its words.
    public let body: String

    public init(peer: KaspaAddress, title: String, body: String) {
        self.peer = peer
        self.title = title
        self.body = body
    }
}

extension Messenger {
    /// The notice `message` deserves, or nil: only a text, a payment or a request to chat from a
    /// peer notifies — not our own messages from another device, reactions, verifications or
    /// broadcasts — and never one from a muted contact or from the conversation open on screen
    /// (`open`). Without `preview` the body names the kind of message, not its text or amount.
    public nonisolated func notice(for message: IncomingMessage, open: KaspaAddress? = nil, preview: Bool = false)
        -> MessageNotice?
    {
        guard [.text, .payment, .handshake].contains(message.kind), message.sender != address,
            message.sender != open
        else { return nil }
        let contact = try? contacts.contact(ContactAddress(message.sender), wallet: wallet)
        if let contact, !contact.isDeleted, contact.notificationsMuted { return nil }
        let body: String
        switch message.kind {
        case .handshake: body = "wants to chat"
        case .payment:
            let amount = message.amountSompi.map { KaspaAmount.kas(fromSompi: $0) + " KAS" } ?? "a payment"
            body =
                preview
                ? "sent you \(amount)" + (message.text.isEmpty ? "" : ": \(message.text)") : "sent you a payment"
        default: body = preview ? message.text : "new message"
        }
        return MessageNotice(peer: message.sender, title: displayName(for: message.sender), body: body)
    }
}
