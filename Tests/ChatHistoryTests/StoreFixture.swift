import ChatHistory
import ChatTimeline
import Foundation

/// A history store on a real SQLite file in a fresh temporary directory.
struct StoreFixture {
    let directory: URL
    let store: ChatHistoryStore
    let conversation = ConversationID("kaspa:qtestcontact")

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("chat-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try ChatHistoryStore(path: directory.appendingPathComponent("wallet.sqlite").path)
    }

    var path: String { directory.appendingPathComponent("wallet.sqlite").path }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// A confirmed incoming text message.
    func message(
        blockTime: UInt64, timestamp: Int64? = nil, txID: String? = nil, id: UUID = UUID(),
        status: DeliveryStatus = .confirmed, body: [UInt8] = [1, 2, 3]
    ) -> StoredMessage {
        StoredMessage(
            id: MessageID(id), conversation: conversation, txID: txID.map(TxID.init),
            blockTime: blockTime, timestamp: timestamp ?? Int64(clamping: blockTime), status: status,
            direction: .incoming, kind: .text, body: Data(body))
    }

    /// Every row of the conversation by walking older pages from the newest, oldest first.
    func walkOlder(limit: Int) throws -> (rows: [StoredMessage], pages: Int) {
        var page = try store.newestPage(in: conversation, limit: limit)
        var rows = page.rows
        var pages = 1
        while page.hasMore, let cursor = page.boundary {
            page = try store.page(in: conversation, olderThan: cursor, limit: limit)
            rows.insert(contentsOf: page.rows, at: 0)
            pages += 1
        }
        return (rows, pages)
    }
}
