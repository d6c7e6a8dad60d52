import ChatHistory
import Foundation
import HTTPTypes
import Hummingbird
import TandemMessaging

/// The JSON the page reads (issue 47 item 2), each answer the library's: the same ``Messenger``
/// calls as `tandem chat`. Errors are JSON `{"error": …}` with a 4xx or 5xx status, never a
/// secret.
struct ChatAppAPI: Sendable {
    let messenger: Messenger

    /// One row of the conversation list.
    struct Conversation: Encodable {
        let address: String
        let alias: String
        let unread: Int
        let awaitsAnswer: Bool
        /// Milliseconds since 1970 of the newest activity.
        let lastActivity: Int64
        let lastMessage: Message?
    }

    /// One message as the page shows it.
    struct Message: Encodable {
        let id: String
        let direction: String
        let status: String
        let text: String
        let blockTime: UInt64
    }

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/conversations") { _, _ in
            do {
                let rows = try await messenger.conversations().map(Self.conversation)
                return Self.json(["conversations": rows])
            } catch {
                return Self.json(["error": String(describing: error)], status: .internalServerError)
            }
        }
    }

    static func conversation(_ summary: ConversationSummary) -> Conversation {
        Conversation(
            address: summary.contact.address.description, alias: summary.contact.alias, unread: summary.unread,
            awaitsAnswer: summary.awaitsAnswer, lastActivity: summary.lastActivity.rawValue,
            lastMessage: summary.lastMessage.map(message))
    }

    static func message(_ stored: StoredMessage) -> Message {
        Message(
            id: stored.id.uuid.uuidString, direction: stored.direction.rawValue, status: stored.status.rawValue,
            text: stored.displayText, blockTime: stored.blockTime)
    }

    /// `value` as a JSON answer the page alone may read.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = (try? encoder.encode(value)) ?? Data(#"{"error":"unencodable answer"}"#.utf8)
        return Response(
            status: status,
            headers: [
                .contentType: "application/json; charset=utf-8", .cacheControl: "no-store",
                .xContentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: .init(bytes: body)))
    }
}
