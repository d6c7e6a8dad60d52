import ChatHistory
import ChatTimeline
import Foundation
import HTTPTypes
import Hummingbird
import TandemBasics
import TandemMessaging

/// The shapes the page reads (issue 47 item 2). Directions are the page's contract: `in` and
/// `out` (item 3), not the store's words.
enum ChatAppJSON {
    /// One row of the conversation list.
    struct Conversation: Encodable {
        let address: String
        let alias: String
        /// What the list and the title show: the contact's name, else the address's one short
        /// form (issue 51 item 5), the same as the CLI and `chat ui`.
        let name: String
        let unread: Int
        let awaitsAnswer: Bool
        let muted: Bool
        let realtime: Bool
        /// Milliseconds since 1970 of the newest activity.
        let lastActivity: Int64
        let lastMessage: Message?

        init(_ summary: ConversationSummary) {
            let contact = summary.contact
            address = contact.address.description
            alias = contact.alias
            name = contact.displayName
            unread = summary.unread
            awaitsAnswer = summary.awaitsAnswer
            muted = contact.notificationsMuted
            realtime = !contact.realtimeUpdatesDisabled
            lastActivity = summary.lastActivity.rawValue
            lastMessage = summary.lastMessage.map(Message.init)
        }
    }

    /// One stored message as the page draws it.
    struct Message: Encodable {
        let id: String
        let conversation: String
        /// `in` or `out`.
        let direction: String
        /// pending, sent, confirmed or failed.
        let status: String
        /// text, payment, handshake or audio.
        let kind: String
        /// The body; null where it cannot be read here (``StoredMessage/displayText`` says why).
        let text: String?
        /// What the CLI prints for the row, the page's fallback.
        let shown: String
        let blockTime: UInt64
        let timestamp: Int64
        /// ``MessageKey/cursorText``: the page orders rows by it and pages older than it.
        let cursor: String
        let reactions: [String]
        let amountSompi: UInt64?
        /// A payment's: a chain block accepted it.
        let verified: Bool?

        init(_ row: StoredMessage) {
            id = row.id.uuid.uuidString
            conversation = row.conversation.rawValue
            direction = row.direction == .incoming ? "in" : "out"
            status = row.status.rawValue
            kind = row.kind.rawValue
            text = row.body.map { String(decoding: $0, as: UTF8.self) }
            shown = row.displayText
            blockTime = row.blockTime
            timestamp = row.timestamp
            cursor = row.key.cursorText
            reactions = row.reactions
            amountSompi = row.amountSompi
            verified = row.kind == .payment ? row.isVerifiedPayment : nil
        }
    }

    /// One page of a conversation, oldest first. The newest page and older pages carry
    /// `hasOlder` and `before`, the cursor of the next older page; a page asked `after` a cursor
    /// carries `hasNewer` and `after`, the cursor of the next newer one.
    struct Page: Encodable {
        let messages: [Message]
        var hasOlder: Bool?
        var before: String?
        var hasNewer: Bool?
        var after: String?
    }

    /// `value` as a JSON answer the page alone may read.
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)) ?? Data(#"{"error":"unencodable answer"}"#.utf8)
        return Response(
            status: status,
            headers: [
                .contentType: "application/json; charset=utf-8", .cacheControl: "no-store",
                .xContentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: .init(bytes: body)))
    }

    static func error(_ message: String, status: HTTPResponse.Status) -> Response {
        response(["error": message], status: status)
    }
}

/// A request the API refuses, with the status and the one line the page shows.
struct ChatAppFailure: Error {
    let status: HTTPResponse.Status
    let message: String

    static func badRequest(_ message: String) -> ChatAppFailure {
        ChatAppFailure(status: .badRequest, message: message)
    }

    /// What a library error means to the page: its input (400), money or a warning in the way
    /// (409), the relay or the node (502), or this process's own storage (500).
    static func from(_ error: any Error) -> ChatAppFailure {
        if let failure = error as? ChatAppFailure { return failure }
        guard let messaging = error as? MessagingError else {
            return ChatAppFailure(status: .internalServerError, message: String(describing: error))
        }
        let status: HTTPResponse.Status =
            switch messaging {
            case .invalidPeer, .invalidMessage, .paymentNeedsKaspa: .badRequest
            case .peerMayNotReceive, .wallet: .conflict
            case .relay, .noRelayServer: .badGateway
            case .storage, .signing: .internalServerError
            }
        return ChatAppFailure(status: status, message: messaging.description)
    }
}
