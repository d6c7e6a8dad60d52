import CanonicalJSON
public import ChatTimeline
public import Foundation

/// One record of a person's synced chat history (issue 48 item 1), as every device of theirs
/// reads it once the record is opened: a message, a deleted conversation, or a message that no
/// device keeps any more.
///
/// A record is named by its ``key``, which every device derives alike: a message by its
/// transaction id (so the same message read from the chain on one device and sent from another
/// is one record), a conversation by its peer. Its plaintext is RFC 8785 canonical JSON, so equal
/// records are equal bytes:
///
/// - `{"v":1,"type":"message","id","txId","conversation","direction","kind","status","blockTime",
///   "timestamp","text","amountSompi","root"}`: `id` the row's UUID, `text` and `root` a string or
///   null, `amountSompi` a decimal string or null (sompi outrun a double), times in milliseconds;
/// - `{"v":1,"type":"conversationDeleted","conversation","through"}`: every message of the
///   conversation up to `through` (milliseconds of block time) is gone on every device;
/// - `{"v":1,"type":"gone","txId"}`: the message's text no longer lives on the server.
public enum ChatSyncRecord: Sendable, Hashable {
    case message(StoredMessage)
    case conversationDeleted(ConversationID, through: UInt64)
    case gone(TxID)

    /// The record's name before the sync hashes it into an opaque id.
    public var key: String {
        switch self {
        case .message(let message): Self.messageKey(message.txID?.rawValue ?? "")
        case .conversationDeleted(let conversation, _): Self.conversationKey(conversation)
        case .gone(let txID): Self.messageKey(txID.rawValue)
        }
    }

    static let messagePrefix = "message:"
    static let conversationPrefix = "conversation:"
    static func messageKey(_ txID: String) -> String { messagePrefix + txID }
    static func conversationKey(_ conversation: ConversationID) -> String { conversationPrefix + conversation.rawValue }

    /// Which rows travel: those the network took (a transaction id, sent or confirmed). Pending and
    /// failed rows stay on the device that can send them again (KaChat's backup rule, §16).
    /// A row whose fields a record cannot carry (a name, time or text out of range) stays too.
    public static func travels(_ message: StoredMessage) -> Bool {
        guard let txID = message.txID, message.status == .sent || message.status == .confirmed else { return false }
        return name(.string(txID.rawValue)) != nil && name(.string(message.conversation.rawValue)) != nil
            && message.blockTime <= exactLimit && (0...Int64(exactLimit)).contains(message.timestamp)
            && (message.body?.count ?? 0) <= maximumTextBytes
            && (message.root.map { !$0.isEmpty && $0.utf8.count <= 32 } ?? true)
    }

    /// Times and numbers a double carries exactly.
    static let exactLimit: UInt64 = 1 << 53
    /// A message's text is at most a relay payload's worth, with room for escapes.
    static let maximumTextBytes = 64 << 10
    static let maximumNameBytes = 256

    /// The canonical plaintext.
    public func plaintext() -> [UInt8] {
        var members: [(String, JSONValue)] = [("v", .number(1))]
        switch self {
        case .message(let message):
            members += [
                ("type", .string("message")), ("id", .string(message.id.uuid.uuidString)),
                ("txId", .string(message.txID?.rawValue ?? "")),
                ("conversation", .string(message.conversation.rawValue)),
                ("direction", .string(message.direction.rawValue)), ("kind", .string(message.kind.rawValue)),
                ("status", .string(message.status.rawValue)), ("blockTime", .number(Double(message.blockTime))),
                ("timestamp", .number(Double(message.timestamp))),
                ("text", message.body.map { .string(String(decoding: $0, as: UTF8.self)) } ?? .null),
                ("amountSompi", message.amountSompi.map { .string(String($0)) } ?? .null),
                ("root", message.root.map(JSONValue.string) ?? .null),
            ]
        case .conversationDeleted(let conversation, let through):
            members += [
                ("type", .string("conversationDeleted")), ("conversation", .string(conversation.rawValue)),
                ("through", .number(Double(through))),
            ]
        case .gone(let txID):
            members += [("type", .string("gone")), ("txId", .string(txID.rawValue))]
        }
        // Every member name is distinct and every number below 2^53, so neither step can fail.
        guard let object = try? JSONObject(members), let bytes = try? CanonicalJSON.canonicalBytes(of: .object(object))
        else { return [] }
        return bytes
    }

    /// Reads a record's plaintext; nil for anything but a valid version-1 record (a newer
    /// client's, or damaged), which the sync counts and leaves alone.
    public static func parse(_ plaintext: some Sequence<UInt8>) -> ChatSyncRecord? {
        guard
            case .object(let object)? = try? CanonicalJSON.parse(
                plaintext, limits: .init(maxBytes: 4 * maximumTextBytes, maxDepth: 2)),
            object["v"] == .number(1), case .string(let type)? = object["type"]
        else { return nil }
        switch type {
        case "message":
            guard object.count == 13 else { return nil }
            return parseMessage(object).map(ChatSyncRecord.message)
        case "conversationDeleted":
            guard object.count == 4, let conversation = name(object["conversation"]),
                let through = integer(object["through"])
            else { return nil }
            return .conversationDeleted(ConversationID(conversation), through: through)
        case "gone":
            guard object.count == 3, let txID = name(object["txId"]) else { return nil }
            return .gone(TxID(txID))
        default:
            return nil
        }
    }

    private static func parseMessage(_ object: JSONObject) -> StoredMessage? {
        guard case .string(let idText)? = object["id"], let uuid = UUID(uuidString: idText),
            let txID = name(object["txId"]), let conversation = name(object["conversation"]),
            case .string(let directionText)? = object["direction"],
            let direction = MessageDirection(rawValue: directionText),
            case .string(let kindText)? = object["kind"], let kind = MessageKind(rawValue: kindText),
            case .string(let statusText)? = object["status"], let status = DeliveryStatus(rawValue: statusText),
            status == .sent || status == .confirmed,
            let blockTime = integer(object["blockTime"]), let timestamp = integer(object["timestamp"])
        else { return nil }
        var body: Data?
        switch object["text"] {
        case .string(let text)? where text.utf8.count <= maximumTextBytes: body = Data(text.utf8)
        case .null?: body = nil
        default: return nil
        }
        var amount: UInt64?
        switch object["amountSompi"] {
        case .string(let digits)?:
            guard digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = UInt64(digits),
                value <= UInt64(Int64.max), String(value) == digits
            else { return nil }
            amount = value
        case .null?: amount = nil
        default: return nil
        }
        var root: String?
        switch object["root"] {
        case .string(let text)? where !text.isEmpty && text.utf8.count <= 32: root = text
        case .null?: root = nil
        default: return nil
        }
        return StoredMessage(
            id: MessageID(uuid), conversation: ConversationID(conversation), txID: TxID(txID), blockTime: blockTime,
            timestamp: Int64(timestamp), status: status, direction: direction, kind: kind, body: body,
            amountSompi: amount, root: root)
    }

    /// A non-empty name of printable ASCII (transaction ids, addresses).
    private static func name(_ value: JSONValue?) -> String? {
        guard case .string(let text)? = value, !text.isEmpty, text.utf8.count <= maximumNameBytes,
            text.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return nil }
        return text
    }

    /// A whole number from 0 to 2^53.
    private static func integer(_ value: JSONValue?) -> UInt64? {
        guard case .number(let number)? = value, number >= 0, number <= Double(exactLimit),
            let whole = UInt64(exactly: number)
        else { return nil }
        return whole
    }
}
