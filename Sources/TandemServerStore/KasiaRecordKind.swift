/// Which indexer table a relayed transaction lands in (kasia-protocol §10); the raw value is
/// the stored `kind` column and the stream's `event:` name.
public enum KasiaRecordKind: String, Sendable, CaseIterable {
    /// `1:handshake:` and legacy (versionless) bodies, under either root.
    case handshake
    case contextualMessage = "contextual_message"
    case payment
    case selfStash = "self_stash"
    case broadcast
}
