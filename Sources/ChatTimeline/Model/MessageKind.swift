/// What a message row shows; it drives its height (kasia-protocol.md §8 `messageType`).
public enum MessageKind: String, Sendable, CaseIterable {
    case text
    case audio
    case payment
    case handshake
}
