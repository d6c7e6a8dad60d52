/// Why transaction payload bytes are not a Kasia payload we can read (kasia-protocol §4).
public enum KasiaPayloadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Neither root (`ciph_msg:`, `kchat:`) first, or nothing after it.
    case notKasiaPayload
    /// `<root>1:<op>:` with an operation no client defines.
    case unknownOperation(String)
    /// A group operation (`gcomm`, `gctl`): defined only by a fork, not read here.
    case unsupportedOperation(String)
    /// `ciph_msg:1:comm:` must be followed by `<alias>:`.
    case commWithoutAliasDelimiter
    /// The `comm` alias is not 12 hex characters.
    case invalidAlias(String)
    /// A `comm` body is neither hex nor padded standard base64.
    case undecodableBody
    /// A `bcast` payload must be `<channel>:<text>` with UTF-8 text.
    case malformedBroadcast
    /// The body is empty where sealed bytes are required.
    case emptyBody

    public var description: String {
        switch self {
        case .notKasiaPayload: "not a Kasia payload"
        case .unknownOperation(let op): "unknown Kasia operation '\(op)'"
        case .unsupportedOperation(let op): "unsupported Kasia operation '\(op)' (group chats are not read)"
        case .commWithoutAliasDelimiter: "comm payload without alias delimiter"
        case .invalidAlias(let alias): "comm alias '\(alias)' must be 12 hex characters"
        case .undecodableBody: "comm body is neither hex nor base64"
        case .malformedBroadcast: "bcast payload must be <channel>:<UTF-8 text>"
        case .emptyBody: "payload body is empty"
        }
    }
}
