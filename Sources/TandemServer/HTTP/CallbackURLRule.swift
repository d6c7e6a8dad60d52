/// Which relative `callbackURL`s BetterAuth accepts (betterauth-api.md §10 rule 3; its
/// trusted-origin matcher with relative paths allowed): an allow-list, not a deny-list, applied
/// to the decoded JSON string. A relative value is a `/`, not followed by another `/` or a `\`,
/// then only path characters (ASCII letters, digits, `_ - . + / @`), then optionally `?` and
/// query characters (the same plus `= & %`). Nothing else: no fragment, no whitespace, no
/// control characters. The issue 14 audit's `"/\t/evil.com"` is the reason: browsers strip tabs
/// and newlines from URLs, which turns it into the scheme-relative `//evil.com`.
enum CallbackURLRule {
    static func isSafeRelativePath(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count > 1, bytes[1] == UInt8(ascii: "/") || bytes[1] == UInt8(ascii: "\\") { return false }
        var inQuery = false
        for byte in bytes.dropFirst() {
            if byte == UInt8(ascii: "?") && !inQuery {
                inQuery = true
                continue
            }
            guard isPathByte(byte) || (inQuery && isQueryOnlyByte(byte)) else { return false }
        }
        return true
    }

    /// True when a value holds a C0 control character, DEL or a space: browsers drop or
    /// re-encode those, so what the server checked would not be what the browser follows.
    static func hasControlOrSpace(_ value: String) -> Bool {
        value.utf8.contains { $0 <= 0x20 || $0 == 0x7f }
    }

    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "/"),
            UInt8(ascii: "@"):
            return true
        default:
            return false
        }
    }

    private static func isQueryOnlyByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "%")
    }
}
