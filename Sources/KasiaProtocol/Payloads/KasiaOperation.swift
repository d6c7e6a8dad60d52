/// The operation word after `ciph_msg:1:` or `kchat:1:` in a transaction payload (kasia-protocol
/// §4, §16); the raw value is the wire string, spelled here only, for the parser, the encoder and
/// the CLI's JSON.
public enum KasiaOperation: String, Sendable, CaseIterable {
    case handshake
    /// A message in a conversation, tagged with the conversation's alias.
    case comm
    /// KaChat's payment memo, also read without a version as `ciph_msg:pay:`.
    case pay
    /// The web client's payment memo.
    case payment
    case selfStash = "self_stash"
    /// A plaintext channel broadcast (newer web only).
    case broadcast = "bcast"
    /// Group messages and group control: recognised so they are reported as unsupported, not
    /// unknown.
    case groupComm = "gcomm"
    case groupControl = "gctl"

    /// The operation and its closing `:` as written on chain.
    var prefix: [UInt8] { Array("\(rawValue):".utf8) }
}
