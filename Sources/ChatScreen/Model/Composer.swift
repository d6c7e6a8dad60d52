/// The message being typed (issue 16 item 4): a text and a cursor, edited by keys.
public struct Composer: Hashable, Sendable {
    public private(set) var text: [Character] = []
    /// Index in `text` where the next character goes.
    public private(set) var cursor = 0

    public init(_ text: String = "") {
        self.text = Array(text)
        cursor = self.text.count
    }

    public var string: String { String(text) }
    public var isBlank: Bool { text.allSatisfy { $0 == " " || $0 == "\n" } }

    public mutating func insert(_ character: Character) {
        text.insert(character, at: cursor)
        cursor += 1
    }

    public mutating func clear() {
        text = []
        cursor = 0
    }

    /// Applies an editing key; returns `false` for keys the composer does not use.
    public mutating func edit(_ key: ScreenKey) -> Bool {
        switch key {
        case .character(let character): insert(character)
        case .altEnter: insert("\n")
        case .backspace:
            if cursor > 0 {
                text.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete: if cursor < text.count { text.remove(at: cursor) }
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(text.count, cursor + 1)
        case .control("a"): cursor = 0
        case .control("e"): cursor = text.count
        case .control("u"): clear()
        default: return false
        }
        return true
    }

    /// The composer's lines at `width` columns and the cursor's (line, column) among them.
    public func layout(width: Int) -> (lines: [String], cursor: (line: Int, column: Int)) {
        let width = max(2, width)
        var lines: [String] = [""]
        var used = 0
        var position = (line: 0, column: 0)
        for (index, character) in text.enumerated() {
            if index == cursor { position = (lines.count - 1, used) }
            if character == "\n" {
                lines.append("")
                used = 0
                continue
            }
            let shown = LineWrapper.sanitized(character)
            let columns = DisplayWidth.columns(of: shown)
            if used + columns > width - 1 {
                lines.append("")
                used = 0
                if index == cursor { position = (lines.count - 1, 0) }
            }
            lines[lines.count - 1].append(shown)
            used += columns
        }
        if cursor == text.count { position = (lines.count - 1, used) }
        return (lines, position)
    }
}
