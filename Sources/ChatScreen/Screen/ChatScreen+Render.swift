import ChatHistory
import Foundation

/// Drawing the state into a ``ScreenFrame`` (issue 16 items 2–6): a title row, the list and the
/// message pane side by side, a rule that carries the "N new" marker, the composer, and a status
/// row with the keys of the focused part. 80×24 is the smallest size it is laid out for.
extension ChatScreen {
    /// Columns of the conversation list at a terminal width.
    /// A wider terminal widens the list (issue 51 item 4), up to 48 columns.
    public static func listWidth(for width: Int) -> Int { min(48, max(16, width * 3 / 10)) }

    /// Lays out the pane for `width`×`height` (so the engine knows its viewport) and draws.
    public mutating func render(width: Int, height: Int) -> ScreenFrame {
        guard width >= 40, height >= 10 else {
            let lines = (0..<max(0, height)).map { row in
                FrameLine.filled(row == 0 ? "Terminal too small (40×10 at least)" : "", width: max(0, width))
            }
            return ScreenFrame(width: width, height: height, lines: lines, cursor: nil)
        }
        let listWidth = Self.listWidth(for: width)
        let paneWidth = width - listWidth - 1
        let editor = focusedEditor(width: width - 2)
        let composerRows = min(4, editor.lines.count)
        let bodyHeight = height - 3 - composerRows
        lastPaneSize = (paneWidth, bodyHeight)
        pane?.resize(width: paneWidth, height: bodyHeight)

        var lines: [FrameLine] = [titleLine(width: width)]
        let list = listLines(width: listWidth, height: bodyHeight)
        let messages =
            showsHelp
            ? helpOverlay(width: paneWidth, height: bodyHeight)
            : pane?.visibleLines() ?? placeholder(width: paneWidth, height: bodyHeight)
        for row in 0..<bodyHeight {
            lines.append(FrameLine(list[row].segments + [FrameSegment("│", .dim)] + messages[row].segments))
        }
        lines.append(ruleLine(width: width, listWidth: listWidth))
        let firstShown = max(0, editor.lines.count - composerRows)
        for index in firstShown..<editor.lines.count {
            var line = FrameLine()
            line.append(index == 0 ? editor.prefix : "", width: 2, style: .dim)
            line.append(editor.lines[index], width: width - 2)
            lines.append(line)
        }
        lines.append(statusLine(width: width))
        let cursorRow = 1 + bodyHeight + 1 + (editor.cursor.line - firstShown)
        let cursor =
            focus == .list ? nil : ScreenPoint(row: cursorRow, column: min(width - 1, 2 + editor.cursor.column))
        return ScreenFrame(width: width, height: height, lines: lines, cursor: cursor)
    }

    func focusedEditor(width: Int) -> (prefix: String, lines: [String], cursor: (line: Int, column: Int)) {
        switch focus {
        case .prompt(.confirm(let question, _, _)):
            return ("! ", [question], (0, DisplayWidth.columns(of: question)))
        case .prompt:
            let layout = promptText.layout(width: width)
            return ("? ", layout.lines, layout.cursor)
        case .list where !filter.isBlank || composer.isBlank:
            let layout = filter.layout(width: width)
            return ("/ ", layout.lines, layout.cursor)
        case .chat, .list:
            let layout = composer.layout(width: width)
            return ("> ", layout.lines, layout.cursor)
        }
    }

    func titleLine(width: Int) -> FrameLine {
        let status: String =
            switch connection {
            case .connecting: "connecting…"
            case .online: "● online"
            case .reconnecting(let reason): "reconnecting (\(reason))"
            }
        let statusColumns = min(DisplayWidth.columns(of: status), width / 2)
        var line = FrameLine()
        let network = account.map { " · " + $0.network + ($0.balance.map { " · " + $0 } ?? "") } ?? ""
        line.append(
            " Tandem chat · " + Self.shortName(ownAddress) + network, width: width - statusColumns - 1, style: .title)
        line.append(status + " ", width: statusColumns + 1, style: connection == .online ? .title : .error)
        return line
    }

    func listLines(width: Int, height: Int) -> [FrameLine] {
        var lines: [FrameLine] = []
        let perEntry = 2
        let shown = visibleIndices
        let rows = max(1, height / perEntry)
        let position = shown.firstIndex(of: selection) ?? 0
        let first = max(0, min(position - rows + 1, shown.count - rows))
        for index in shown.dropFirst(first) where lines.count + perEntry <= height {
            let entry = conversations[index]
            let isSelected = index == selection
            let badge = entry.unread > 0 ? " (\(entry.unread))" : ""
            let muted = entry.isMuted ? " ~" : ""
            let time = Self.listTime(entry.lastActivity, timeZone: timeZone)
            let nameWidth = max(1, width - DisplayWidth.columns(of: time) - 1)
            var top = FrameLine()
            let nameStyle: FrameStyle = isSelected ? .selected : (entry.unread > 0 ? .unread : .normal)
            top.append((isSelected ? "▸" : " ") + entry.name + badge + muted, width: nameWidth, style: nameStyle)
            top.append(" " + time, width: width - nameWidth, style: isSelected ? .selected : .dim)
            lines.append(top)
            let preview =
                entry.isPendingHandshake
                ? "  wants to chat: ^A accept, ^D decline"
                : "  " + (entry.preview ?? "").replacingOccurrences(of: "\n", with: " ")
            lines.append(FrameLine.filled(preview, width: width, style: entry.isPendingHandshake ? .marker : .dim))
        }
        if conversations.isEmpty {
            lines.append(FrameLine.filled(" No conversations: Ctrl-N starts one", width: width, style: .dim))
        } else if shown.isEmpty {
            lines.append(FrameLine.filled(" Nothing matches “\(filter.string)”", width: width, style: .dim))
        }
        while lines.count < height { lines.append(FrameLine.filled("", width: width)) }
        return Array(lines.prefix(height))
    }

    /// The keys and the receipts' legend, over the message pane.
    func helpOverlay(width: Int, height: Int) -> [FrameLine] {
        (0..<height).map { row in
            let text = row < Self.helpLines.count ? " " + Self.helpLines[row] : ""
            return FrameLine.filled(text, width: width, style: row < Self.helpLines.count ? .normal : .dim)
        }
    }

    func placeholder(width: Int, height: Int) -> [FrameLine] {
        (0..<height).map { row in
            FrameLine.filled(
                row == height / 2 ? "  Select a conversation and press Enter" : "", width: width, style: .dim)
        }
    }

    /// The rule above the composer; over the pane it says how many messages arrived below.
    func ruleLine(width: Int, listWidth: Int) -> FrameLine {
        var line = FrameLine()
        line.append(String(repeating: "─", count: listWidth + 1), width: listWidth + 1, style: .dim)
        let paneWidth = width - listWidth - 1
        let unseen = pane?.unseenCount ?? 0
        if unseen > 0 {
            let marker = "── \(unseen) new ↓ End "
            line.append(marker, width: min(paneWidth, DisplayWidth.columns(of: marker)), style: .marker)
            let rest = paneWidth - min(paneWidth, DisplayWidth.columns(of: marker))
            line.append(String(repeating: "─", count: max(0, rest)), width: rest, style: .dim)
        } else if let pane, !pane.isAtBottom {
            let hint = "── more below: End "
            line.append(hint, width: min(paneWidth, DisplayWidth.columns(of: hint)), style: .dim)
            let rest = paneWidth - min(paneWidth, DisplayWidth.columns(of: hint))
            line.append(String(repeating: "─", count: max(0, rest)), width: rest, style: .dim)
        } else {
            line.append(String(repeating: "─", count: paneWidth), width: paneWidth, style: .dim)
        }
        return line
    }

    func statusLine(width: Int) -> FrameLine {
        if let notice { return FrameLine.filled(" " + notice, width: width, style: .error) }
        let help: String =
            switch focus {
            case .list: " type to filter · ^N new · ^R rename · ^O mute · ^A/^D answer · ? all keys"
            case .chat: " Enter send · Alt+Enter newline · PgUp/PgDn · End newest · ^R retry · Esc list"
            case .prompt(.newConversation): " New conversation: address or contact name · Enter · Esc cancels"
            case .prompt(.rename): " Rename: new name (empty clears) · Enter · Esc cancels"
            case .prompt(.confirm): " y confirms · any other key cancels"
            }
        return FrameLine.filled(help, width: width, style: .dim)
    }

    /// `HH:MM` today, else `d MMM`.
    static func listTime(_ milliseconds: Int64, timeZone: TimeZone) -> String {
        guard milliseconds > 0 else { return "" }
        let format = MessageFormat(peerName: "", timeZone: timeZone)
        let time = UInt64(milliseconds)
        let now = UInt64(max(0, Date().timeIntervalSince1970 * 1000))
        if format.day(of: time) == format.day(of: now) { return format.clock(of: time) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "d MMM"
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
