/// A network failure in a few plain words (issue 51 item 8): what the networking stacks describe
/// at length — NIO's connection errors run to hundreds of characters with `errno` and type names,
/// URLSession's carry domains and codes — reduced to its cause, so no system-call text reaches
/// a person.
public enum NetworkFailureText {
    /// The cause of `error`: "connection refused", "unknown host", "no answer in time", … or,
    /// for anything not recognised, its text cut to 120 characters.
    public static func reason(_ error: any Error) -> String {
        reason(String(describing: error))
    }

    /// ``reason(_:)`` of an error's text.
    public static func reason(_ text: String) -> String {
        for (marker, cause) in causes where text.contains(marker) { return cause }
        return text.count > 120 ? String(text.prefix(119)) + "…" : text
    }

    /// Markers in the order they are looked for: a refusal wrapped in a reset is a refusal.
    static let causes: [(String, String)] = [
        ("Connection refused", "connection refused"), ("Could not connect", "connection refused"),
        ("connection reset", "connection reset"), ("Connection reset", "connection reset"),
        ("UnknownHost", "unknown host"), ("DNS", "unknown host"), ("nodename nor servname", "unknown host"),
        ("hostname could not be found", "unknown host"), ("Name or service not known", "unknown host"),
        ("did not finish in time", "no answer in time"), ("timedOut", "no answer in time"),
        ("timed out", "no answer in time"), ("certificate", "TLS failed (certificate)"),
        ("handshakeFailed", "TLS failed"), ("NIOSSL", "TLS failed"), ("invalidUpgrade", "not a WebSocket endpoint"),
        ("closed before the WebSocket opened", "closed before the WebSocket opened"),
        ("alreadyFinished", "the connection closed"),
        ("messages ahead of their reader", "the node sent faster than it was read"),
        ("Network is unreachable", "no network"), ("No route to host", "no route to the host"),
    ]
}
