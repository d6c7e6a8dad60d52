/// Whether this wallet sent or received the message (kasia-protocol.md §8 `isOutgoing`).
public enum MessageDirection: String, Sendable, CaseIterable {
    case incoming
    case outgoing
}
