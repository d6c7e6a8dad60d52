import ChatHistory
import ChatTimeline
import TandemBasics

/// The displayed content of the loaded rows of one conversation, shared by the pane and the
/// timeline engine's `measure` function: a row's height is its wrapped line count at the pane's
/// width, plus one when a day separator sits above it (timeline-and-contacts.md §2.1: heights
/// come from the shell).
///
/// `Sendable` because the engine's `measure` must be `@Sendable`: the rows and width sit in a `Locked`.
final class RowCache: Sendable {
    struct Entry {
        var message: StoredMessage
        var day: Int64
        var lines: [String]?
        var separator = false
    }

    private struct State {
        var entries: [MessageID: Entry] = [:]
        var width = 40

        /// The row's wrapped lines, wrapped now and kept when not cached.
        mutating func lines(_ id: MessageID, format: MessageFormat) -> [String]? {
            guard var entry = entries[id] else { return nil }
            if let lines = entry.lines { return lines }
            let lines = format.lines(of: entry.message, width: width)
            entry.lines = lines
            entries[id] = entry
            return lines
        }
    }

    let format: MessageFormat
    private let state = Locked(State())

    init(format: MessageFormat) { self.format = format }

    var count: Int { state.withLock { $0.entries.count } }

    /// Stores (or replaces) a row's content; its lines are wrapped again on next use.
    func store(_ message: StoredMessage) {
        let day = format.day(of: message.blockTime)
        state.withLock { state in
            let separator = state.entries[message.id]?.separator ?? false
            state.entries[message.id] = Entry(message: message, day: day, lines: nil, separator: separator)
        }
    }

    func setWidth(_ newWidth: Int) {
        state.withLock { state in
            guard newWidth != state.width else { return }
            state.width = newWidth
            for id in state.entries.keys { state.entries[id]?.lines = nil }
        }
    }

    /// Sets whether a day separator is drawn above the row.
    func setSeparator(_ id: MessageID, _ separator: Bool) {
        state.withLock { $0.entries[id]?.separator = separator }
    }

    /// The row's height in terminal lines; 1 for a row whose content is unknown.
    func height(of id: MessageID) -> Double {
        state.withLock { state in
            guard let lines = state.lines(id, format: format) else { return 1 }
            return Double(lines.count + (state.entries[id]?.separator == true ? 1 : 0))
        }
    }

    /// The row's message, wrapped lines and separator flag.
    func row(_ id: MessageID) -> (message: StoredMessage, lines: [String], separator: Bool)? {
        state.withLock { state in
            guard let lines = state.lines(id, format: format), let entry = state.entries[id] else { return nil }
            return (entry.message, lines, entry.separator)
        }
    }

    func day(of id: MessageID) -> Int64? { state.withLock { $0.entries[id]?.day } }

    /// Forgets rows the engine no longer holds, so memory follows the engine's window cap.
    func prune(keeping ids: Set<MessageID>) {
        state.withLock { $0.entries = $0.entries.filter { ids.contains($0.key) } }
    }
}
