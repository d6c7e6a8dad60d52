public import Foundation

/// Text as a person's search matches it: without case, accents or surrounding spaces, so "Zoë"
/// finds "zoe". Names are short and few, so Foundation's folding is used as is (the task
/// search's byte-level folding in RedoApp is for whole logs).
public enum TextFolding {
    public static func folded(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
