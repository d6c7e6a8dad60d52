/// Database URLs with their secrets replaced, for every message that shows one (issue 14
/// audit: `tandem serve` and `tandem admin` echoed the PostgreSQL password in the "not a
/// postgres:// URL" error). Works on text that is not a valid URL too, since the messages
/// that need it are exactly the ones about malformed URLs.
public enum DatabaseURLRedaction {
    public static let mask = "***"

    /// `postgres://user:secret@host/db?password=x` → `postgres://user:***@host/db?password=***`.
    /// The userinfo ends at the last `@` before the path, so a password holding `@` is hidden whole.
    public static func redact(_ text: String) -> String {
        let start = text.range(of: "://")?.upperBound ?? text.startIndex
        let authorityEnd = text[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
        var out = String(text[..<start])
        if let at = text[start..<authorityEnd].lastIndex(of: "@") {
            let userinfo = text[start..<at]
            if let colon = userinfo.firstIndex(of: ":") {
                out += userinfo[..<colon] + ":" + mask
            } else {
                out += userinfo
            }
            out += text[at..<authorityEnd]
        } else {
            out += text[start..<authorityEnd]
        }
        out += redactQuery(String(text[authorityEnd...]))
        return out
    }

    /// Query parameters that carry secrets (`password`, `sslpassword`, …) keep only their names.
    private static func redactQuery(_ rest: String) -> String {
        guard let question = rest.firstIndex(of: "?") else { return rest }
        let fragmentStart = rest[question...].firstIndex(of: "#") ?? rest.endIndex
        let query = rest[rest.index(after: question)..<fragmentStart]
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].lowercased().contains("pass") || parts[0].lowercased().contains("secret")
            else {
                return String(pair)
            }
            return parts[0] + "=" + mask
        }
        return rest[..<question] + "?" + pairs.joined(separator: "&") + rest[fragmentStart...]
    }
}
