/// The `event:` name of a `GET /kasia/stream` Server-Sent Event: which indexer row its `data:`
/// holds (issue 11 item 3).
public enum RelayEventKind: String, Codable, Sendable, CaseIterable {
    /// `data:` is an ``IndexerHandshake``.
    case handshake
    /// `data:` is an ``IndexerContextualMessage`` (its `alias` is the hex of the row's alias).
    case contextualMessage = "contextual_message"
    /// `data:` is an ``IndexerPayment`` with `sender` set.
    case payment
    /// `data:` is an ``IndexerSelfStash``.
    case selfStash = "self_stash"
    /// `data:` is an ``IndexerBroadcast``: broadcasts are relayed but not indexed upstream.
    case broadcast
}
