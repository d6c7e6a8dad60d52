import CTextWidth

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Terminal columns of text, from the C library's `wcwidth` under a UTF-8 locale (issue 16:
/// "wide characters wrap correctly", by the same table ncursesw draws with, not a hand table).
///
/// `wcwidth` reads the calling thread's `LC_CTYPE`; the width is taken under a private
/// `C.UTF-8` locale installed with `uselocale` for the one call, so the answer does not depend
/// on the process locale and no global state changes.
public enum DisplayWidth {
    /// Created once and never freed or changed: sharing it between threads is what `uselocale`
    /// is for (POSIX `newlocale`/`uselocale`).
    nonisolated(unsafe) static let utf8Locale: locale_t? =
        newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) ?? newlocale(LC_CTYPE_MASK, "en_US.UTF-8", nil)

    /// Columns of one grapheme: 0 for combining marks, 2 for East Asian wide characters and
    /// emoji (an emoji presentation selector widens a narrow base), 1 for everything else printable.
    public static func columns(of character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii != 0x7F ? 1 : 0 }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        var width = scalarColumns(first)
        if width < 0 { width = 1 }
        if width == 1, scalars.contains(where: { $0.value == 0xFE0F }) { width = 2 }
        return width
    }

    /// Columns of a string: the sum over its graphemes.
    public static func columns(of text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += columns(of: character) }
        return total
    }

    static func scalarColumns(_ scalar: Unicode.Scalar) -> Int {
        guard let locale = utf8Locale else { return scalar.properties.isEmoji ? 2 : 1 }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        return Int(tandem_wcwidth(scalar.value))
    }

    /// The longest prefix of `text` that fits in `width` columns, padded with spaces to exactly
    /// `width` (a wide character that would straddle the edge becomes a space), controls and bidi
    /// overrides shown as U+FFFD (``LineWrapper``).
    public static func fit(_ text: some StringProtocol, width: Int) -> String {
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for raw in text {
            let character = LineWrapper.sanitized(raw)
            let columns = columns(of: character)
            if used + columns > width { break }
            result.append(character)
            used += columns
        }
        if used < width { result += String(repeating: " ", count: width - used) }
        return result
    }
}
