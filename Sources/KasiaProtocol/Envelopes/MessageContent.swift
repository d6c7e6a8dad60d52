import Foundation

/// What an opened message says (issue 46 item 3): the one model of message content, read here
/// from the plaintext so that the ingest, an app and any later transport decide what to do with
/// it, never how to parse it. Attachments, when they come, are one more case.
public enum MessageContent: Sendable, Equatable {
    /// Words to show as they are.
    case text(String)
    /// One of KaChat's JSON envelopes (kasia-protocol §16): a reaction, a payment notice, a
    /// reply, an edit, a fresh-address pool, a call or a chess move.
    case envelope(KaChatEnvelope)
    /// A payment's memo as a person reads it (kasia-protocol §5.3): the memo's `message`, empty
    /// when it has only whitespace (Kasia web writes one space for no memo).
    case paymentMemo(String)

    /// The content of a contextual message's plaintext: an envelope when it is one, else text.
    public init(message plaintext: String) {
        if let envelope = KaChatEnvelope(text: plaintext) {
            self = .envelope(envelope)
        } else {
            self = .text(plaintext)
        }
    }

    /// The content of a payment's opened payload: the memo JSON's `message` (KaChat and Kasia web
    /// write the same members), or the plaintext itself when it is not a JSON object.
    public init(paymentPlaintext plaintext: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(plaintext.utf8)) as? [String: Any] else {
            self = .paymentMemo(plaintext)
            return
        }
        let memo = object["message"] as? String ?? ""
        self = .paymentMemo(memo.allSatisfy(\.isWhitespace) ? "" : memo)
    }

    /// The words a person sees for text and a payment's memo; nil for an envelope, which acts on
    /// the conversation rather than being shown as it is.
    public var shownText: String? {
        switch self {
        case .text(let text), .paymentMemo(let text): text
        case .envelope: nil
        }
    }
}
