import ChatHistory
import ChatTimeline
import Foundation

/// The displayed content of the loaded rows of one conversation, shared by the pane and the
/// timeline engine's `measure` function: a row's height is its wrapped line count at the pane's
/// width, plus one when a day separator sits above it (timeline-and-contacts.md §2.1: heights
/// come from the shell).
///
/// `@unchecked Sendable`: the engine's `measure` must be `@Sendable`, and every stored property
/// but the immutable `format` is read and written only while holding `lock`.
final class RowCache: @unchecked Sendable {
    struct Entry {
        var message: StoredMessage
        var day: Int64
        var lines: [String]?
        var separator = false
    }

    let format: MessageFormat
    private let lock = NSLock()
    private var entries: [MessageID: Entry] = [:]
    private var width = 40

    init(format: MessageFormat) { self.format = format }

    var count: Int { lock.withLock { entries.count } }

    /// Stores (or replaces) a row's content; its lines are wrapped again on next use.
    func store(_ message: StoredMessage) {
        let day = format.day(of: message.blockTime)
        lock.withLock {
            let separator = entries[message.id]?.separator ?? false
            entries[message.id] = Entry(message: message, day: day, lines: nil, separator: separator)
        }
    }

    func setWidth(_ newWidth: Int) {
        lock.withLock {
            guard newWidth != width else { return }
            width = newWidth
            for id in entries.keys { entries[id]?.lines = nil }
        }
    }

    /// Sets whether a day separator is drawn above the row.
    func setSeparator(_ id: MessageID, _ separator: Bool) {
        lock.withLock { entries[id]?.separator = separator }
    }

    /// The row's height in terminal lines; 1 for a row whose content is unknown.
    func height(of id: MessageID) -> Double {
        lock.withLock {
            guard let lines = linesLocked(id) else { return 1 }
            return Double(lines.count + (entries[id]?.separator == true ? 1 : 0))
        }
    }

    /// The row's message, wrapped lines and separator flag.
    func row(_ id: MessageID) -> (message: StoredMessage, lines: [String], separator: Bool)? {
        lock.withLock {
            guard let lines = linesLocked(id), let entry = entries[id] else { return nil }
            return (entry.message, lines, entry.separator)
        }
    }

    func day(of id: MessageID) -> Int64? { lock.withLock { entries[id]?.day } }

    /// Forgets rows the engine no longer holds, so memory follows the engine's window cap.
    func prune(keeping ids: Set<MessageID>) {
        lock.withLock { entries = entries.filter { ids.contains($0.key) } }
    }

    private func linesLocked(_ id: MessageID) -> [String]? {
        guard var entry = entries[id] else { return nil }
        if let lines = entry.lines { return lines }
        let lines = format.lines(of: entry.message, width: width)
        entry.lines = lines
        entries[id] = entry
        return lines
    }
}
