public import Foundation

/// URLs with their secrets replaced, for every message, log line and answer that shows one: the
/// database URL (issue 14 audit: `tandem serve` echoed the PostgreSQL password in an error) and a
/// Kaspa node's (issue 50 item 9: `/health`, relay receipts and logs). Works on text that is not
/// a valid URL too, since the messages that need it are often the ones about malformed URLs.
public enum URLRedaction {
    public static let mask = "***"

    /// `postgres://user:secret@host/db?password=x` → `postgres://user:***@host/db?password=***`;
    /// with `keepingUser: false` the whole userinfo goes (`wss://***@host`: a node's API token is
    /// often the user name). The userinfo ends at the last `@` before the path, so a password
    /// holding `@` is hidden whole. Query parameters whose names say they carry a secret (pass,
    /// secret, token, key, auth, sig, credential) keep only their names.
    public static func redact(_ text: String, keepingUser: Bool = true) -> String {
        let start = text.range(of: "://")?.upperBound ?? text.startIndex
        let authorityEnd = text[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
        var out = String(text[..<start])
        if let at = text[start..<authorityEnd].lastIndex(of: "@") {
            let userinfo = text[start..<at]
            if !keepingUser {
                out += mask
            } else if let colon = userinfo.firstIndex(of: ":") {
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

    /// A node's (or any service's) URL for display: no userinfo, no secret query values.
    public static func redact(_ url: URL) -> String { redact(url.absoluteString, keepingUser: false) }

    static let secretNames = ["pass", "secret", "token", "key", "auth", "sig", "credential"]

    private static func redactQuery(_ rest: String) -> String {
        guard let question = rest.firstIndex(of: "?") else { return rest }
        let fragmentStart = rest[question...].firstIndex(of: "#") ?? rest.endIndex
        let query = rest[rest.index(after: question)..<fragmentStart]
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].lowercased()
            guard parts.count == 2, secretNames.contains(where: { name.contains($0) }) else { return String(pair) }
            return parts[0] + "=" + mask
        }
        return rest[..<question] + "?" + pairs.joined(separator: "&") + rest[fragmentStart...]
    }
}
