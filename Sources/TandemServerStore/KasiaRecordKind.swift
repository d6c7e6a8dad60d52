/// Which indexer table a relayed transaction lands in (kasia-protocol §10); the raw value is
/// the stored `kind` column and the stream's `event:` name.
public enum KasiaRecordKind: String, Sendable, CaseIterable {
    /// `ciph_msg:1:handshake:` and legacy `ciph_msg:` bodies.
    case handshake
    case contextualMessage = "contextual_message"
    case payment
    case selfStash = "self_stash"
    case broadcast
}
