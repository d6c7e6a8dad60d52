import CanonicalJSON

/// A JSON envelope KaChat sends as the sealed text of an ordinary `comm` message (kasia-protocol
/// §16, KaChat's MESSAGING.md; issue 43 item 4): reactions, payment notices, fresh payment
/// addresses, calls and chess, replies and edits.
///
/// A text is an envelope as KaChat reads one: trimmed, it starts with `{`, is under 100,000 UTF-8
/// bytes, parses as a JSON object whose `type` names a known envelope, and has that envelope's
/// required members. Anything else (an unknown `type` included) is an ordinary message, shown as
/// its text, as KaChat shows it.
public enum KaChatEnvelope: Sendable, Equatable {
    /// `{"type":"reaction","targetTxId","emoji","action":"add"|"remove"}`: one per reactor and
    /// message; `emoji` nil removes it.
    case reaction(targetTxID: String, emoji: String?)
    /// `{"type":"payment_notice","txId","amountSompi","address","memo"?}`: a payment to one of
    /// the sender's fresh addresses, shown as a payment row under `txId`.
    case paymentNotice(txID: String, amountSompi: UInt64, address: String, memo: String)
    /// `addr_pool` / `addr_pool_request`: the peer's fresh payment addresses; never shown.
    case addressPool
    /// `call_invite`, `call_request`, `call_end`, `call_response`: shown as a short line.
    case call(kind: String)
    /// `chess_invite`, `chess_response`, `chess_move`, `chess_resign`: shown as a short line.
    case chess(kind: String)
    /// `{"type":"reply","replyToId","replyToPreview"?,"text"}`: the text, quoting its target.
    case reply(preview: String, text: String)
    /// `{"type":"edit","targetTxId","text"}`: the sender's new text of an earlier message.
    case edit(targetTxID: String, text: String)

    /// KaChat's bound on an envelope's size, in UTF-8 bytes.
    public static let maximumBytes = 100_000

    /// The envelope `text` is, or nil for an ordinary message.
    public init?(text: String) {
        let trimmed = text.trimmingPrefix { $0.isWhitespace }
        guard trimmed.first == "{", trimmed.utf8.count < Self.maximumBytes,
            case .object(let object)? = try? JSONParser(limits: .init(maxBytes: Self.maximumBytes, maxDepth: 8)).parse(
                trimmed.utf8),
            case .string(let type)? = object["type"]
        else { return nil }
        func string(_ name: String) -> String? {
            if case .string(let value)? = object[name] { value } else { nil }
        }
        switch type {
        case "reaction":
            guard let target = string("targetTxId"), !target.isEmpty else { return nil }
            switch string("action") ?? "add" {
            case "add":
                guard let emoji = string("emoji"), !emoji.isEmpty else { return nil }
                self = .reaction(targetTxID: target, emoji: emoji)
            case "remove": self = .reaction(targetTxID: target, emoji: nil)
            default: return nil
            }
        case "payment_notice":
            guard let txID = string("txId"), !txID.isEmpty, let address = string("address"),
                case .number(let amount)? = object["amountSompi"], amount >= 0, amount == amount.rounded(),
                amount < 18_446_744_073_709_551_616
            else { return nil }
            self = .paymentNotice(
                txID: txID.lowercased(), amountSompi: UInt64(amount), address: address, memo: string("memo") ?? "")
        case "addr_pool", "addr_pool_request":
            self = .addressPool
        case "call_invite", "call_request", "call_end", "call_response":
            guard string("callId") != nil else { return nil }
            self = .call(kind: String(type.dropFirst("call_".count)))
        case "chess_invite", "chess_response", "chess_move", "chess_resign":
            guard string("gameId") != nil else { return nil }
            self = .chess(kind: String(type.dropFirst("chess_".count)))
        case "reply":
            guard string("replyToId") != nil, let text = string("text") else { return nil }
            self = .reply(preview: string("replyToPreview") ?? "", text: text)
        case "edit":
            guard let target = string("targetTxId"), !target.isEmpty, let text = string("text") else { return nil }
            self = .edit(targetTxID: target, text: text)
        default:
            return nil
        }
    }
}
