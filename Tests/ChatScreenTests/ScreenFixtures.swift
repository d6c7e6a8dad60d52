import ChatHistory
import ChatScreen
import ChatTimeline
import Foundation

/// Rows for a conversation, made up and stored in a real (in-memory) history store.
enum ScreenFixtures {
    static let peer = "kaspa:qypeerpeerpeerpeerpeerpeerpeerpeerpeerpeerpeerpeerpeerpeerqq"
    static let conversation = ConversationID(peer)
    static let utc = TimeZone(identifier: "UTC") ?? .current
    /// 2026-11-26 00:00 UTC.
    static let start: UInt64 = 1_795_651_200_000

    /// A deterministic id for row `index`.
    static func id(_ index: Int) -> MessageID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for shift in 0..<8 { bytes[15 - shift] = UInt8((index >> (shift * 8)) & 0xFF) }
        bytes[6] = 0x40
        return MessageID(bytes: bytes) ?? MessageID(UUID())
    }

    static func message(
        _ index: Int, text: String? = nil, at time: UInt64? = nil, direction: MessageDirection = .incoming,
        status: DeliveryStatus = .sent
    ) -> StoredMessage {
        let blockTime = time ?? start + UInt64(index) * 60_000
        return StoredMessage(
            id: id(index), conversation: conversation, txID: status == .pending ? nil : TxID("tx\(index)"),
            blockTime: blockTime, timestamp: Int64(blockTime), status: status, direction: direction, kind: .text,
            body: Data((text ?? "message #\(index)").utf8))
    }

    /// A store holding `count` one-minute-apart messages `message #0` … (oldest first).
    static func store(count: Int) throws -> ChatHistoryStore {
        let store = try ChatHistoryStore.inMemory()
        try store.save(contentsOf: (0..<count).map { message($0) })
        return store
    }

    static func pane(_ store: ChatHistoryStore, width: Int = 40, height: Int = 10) -> MessagePane {
        var pane = MessagePane(
            store: store, conversation: conversation, format: MessageFormat(peerName: "bob", timeZone: utc))
        pane.resize(width: width, height: height)
        pane.open()
        return pane
    }

    /// The pane's rows with trailing spaces trimmed, as a terminal capture shows them.
    static func text(_ pane: MessagePane) -> [String] {
        pane.visibleLines().map { String($0.text.reversed().drop { $0 == " " }.reversed()) }
    }
}
