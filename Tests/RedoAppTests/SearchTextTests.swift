import Testing

@testable import RedoApp

@Suite struct SearchTextTests {
    @Test func foldsCaseAndDiacritics() {
        #expect(SearchText.fold("Café CRÈME") == Array("cafe creme".utf8))
        #expect(SearchText.fold("ÅNGSTRÖM") == Array("angstrom".utf8))
        #expect(SearchText.fold("Ünïcödé naïve") == Array("unicode naive".utf8))
        // Decomposed input folds like precomposed.
        #expect(SearchText.fold("e\u{301}te\u{301}") == SearchText.fold("été"))
        #expect(SearchText.fold("plain ascii 123") == Array("plain ascii 123".utf8))
    }

    @Test func wordsSplitOnWhitespaceAndDropEmptyOnes() {
        #expect(SearchText.words("  Buy   MILK\tnow ") == [Array("buy".utf8), Array("milk".utf8), Array("now".utf8)])
        #expect(SearchText.words("   ").isEmpty)
    }
}
