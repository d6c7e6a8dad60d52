/// How a deterministic alias's HKDF `info` is built (kasia-protocol §6.2–6.3).
public enum AliasScheme: String, Sendable, CaseIterable, Codable {
    /// `"chat" ‖ ss ‖ ctx`: what KaChat ships and seed 000 §1.1 fixes. The default.
    case chat
    /// `"dm_alias:v1" ‖ ctx`: seen in one Kasia web revision; only when a peer is known to use it.
    case dmAliasV1 = "dm_alias_v1"

    func info(sharedX: [UInt8], context: [UInt8]) -> [UInt8] {
        switch self {
        case .chat: Array("chat".utf8) + sharedX + context
        case .dmAliasV1: Array("dm_alias:v1".utf8) + context
        }
    }
}
