import ChatScreen
import Testing

/// Display widths from the C library's `wcwidth` and wrapping by columns (issue 16 item 3).
@Suite struct TextLayoutTests {
    @Test(arguments: [
        ("a", 1), ("漢", 2), ("😀", 2), ("e\u{301}", 1), ("☺\u{FE0F}", 2), ("한", 2), ("é", 1),
    ])
    func columnsFollowWcwidth(character: String, columns: Int) {
        #expect(DisplayWidth.columns(of: character) == columns)
    }

    @Test func wrapsAtSpacesAndKeepsEveryLineWithinTheWidth() {
        let lines = LineWrapper.wrap("the quick brown fox jumps over the lazy dog", width: 10)
        #expect(lines == ["the quick", "brown fox", "jumps over", "the lazy", "dog"])
    }

    @Test func breaksAWordLongerThanALine() {
        #expect(LineWrapper.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
    }

    @Test func neverSplitsAWideCharacterAcrossTheEdge() {
        let lines = LineWrapper.wrap("漢字漢字漢字 😀😀😀 mixed 漢a字b", width: 5)
        #expect(lines.allSatisfy { DisplayWidth.columns(of: $0) <= 5 })
        #expect(lines.joined().filter { $0 != " " } == "漢字漢字漢字😀😀😀mixed漢a字b")
    }

    @Test func newlinesStartLinesAndControlCharactersAreReplaced() {
        #expect(LineWrapper.wrap("one\ntwo\u{7}", width: 20) == ["one", "two\u{FFFD}"])
        // A peer's escape sequence and bidi override (issue 50 item 8) never reach the terminal.
        #expect(LineWrapper.wrap("a\u{1B}[2Jb\u{202E}c\u{2066}d", width: 20) == ["a\u{FFFD}[2Jb\u{FFFD}c\u{FFFD}d"])
        #expect(DisplayWidth.fit("x\u{1B}]0;t\u{7}\u{202E}y", width: 9) == "x\u{FFFD}]0;t\u{FFFD}\u{FFFD}y")
        #expect(LineWrapper.wrap("", width: 20) == [""])
    }

    @Test func fitPadsAndCutsToExactColumns() {
        #expect(DisplayWidth.fit("ab", width: 4) == "ab  ")
        #expect(DisplayWidth.fit("漢字漢", width: 5) == "漢字 ")
        #expect(DisplayWidth.columns(of: DisplayWidth.fit("😀😀😀", width: 5)) == 5)
    }

    @Test func composerEditsAndLaysOutItsCursor() {
        var composer = Composer()
        for character in "hi" { composer.insert(character) }
        let newline = composer.edit(.altEnter)
        #expect(newline)
        composer.insert("漢")
        #expect(composer.string == "hi\n漢")
        let layout = composer.layout(width: 20)
        #expect(layout.lines == ["hi", "漢"])
        #expect(layout.cursor.line == 1 && layout.cursor.column == 2)
        let edits = [composer.edit(.backspace), composer.edit(.left), composer.edit(.backspace)]
        #expect(edits == [true, true, true])
        #expect(composer.string == "h\n")
        let scrolled = composer.edit(.pageUp)
        #expect(!scrolled)
    }
}
