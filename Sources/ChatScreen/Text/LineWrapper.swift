/// Breaks text into lines of at most a given number of terminal columns (issue 16: "wide
/// characters and long lines wrap"): at spaces where possible, inside a word only when the word
/// alone is wider than a line, never through a wide character.
public enum LineWrapper {
    /// Wraps `text` to `width` columns. Newlines start new lines; control characters and bidi
    /// overrides are shown as U+FFFD so nothing but printable text reaches the terminal. Always at
    /// least one line.
    public static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines += wrapParagraph(paragraph, width: width)
        }
        return lines.isEmpty ? [""] : lines
    }

    static func wrapParagraph(_ paragraph: Substring, width: Int) -> [String] {
        var lines: [String] = []
        var line: [(Character, Int)] = []
        var used = 0
        /// Index in `line` just after the last space: where a word break may happen.
        var breakIndex: Int?
        for raw in paragraph {
            let character = sanitized(raw)
            let columns = min(DisplayWidth.columns(of: character), width)
            if used + columns > width {
                if character == " " {
                    lines.append(String(line.map(\.0)))
                    line = []
                    used = 0
                    breakIndex = nil
                    continue
                }
                if let split = breakIndex, split > 0, split < line.count {
                    let head = line[..<split]
                    lines.append(trimmedTrailingSpaces(head.map(\.0)))
                    line = Array(line[split...])
                } else {
                    lines.append(trimmedTrailingSpaces(line.map(\.0)))
                    line = []
                }
                used = line.reduce(0) { $0 + $1.1 }
                breakIndex = nil
            }
            line.append((character, columns))
            used += columns
            if character == " " { breakIndex = line.count }
        }
        lines.append(String(line.map(\.0)))
        return lines
    }

    /// A tab as a space; a character holding a C0 or C1 control, DEL or a bidirectional override
    /// or isolate (which would reorder what follows it on the line, issue 50 item 8) as U+FFFD.
    static func sanitized(_ character: Character) -> Character {
        if character == "\t" { return " " }
        for scalar in character.unicodeScalars {
            let value = scalar.value
            if value < 0x20 || (0x7F..<0xA0).contains(value) || (0x202A...0x202E).contains(value)
                || (0x2066...0x2069).contains(value)
            {
                return "\u{FFFD}"
            }
        }
        return character
    }

    static func trimmedTrailingSpaces(_ characters: [Character]) -> String {
        var end = characters.count
        while end > 0 && characters[end - 1] == " " { end -= 1 }
        return String(characters[..<end])
    }
}
