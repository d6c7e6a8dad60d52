/// Where the reader lands when a conversation opens.
public enum TimelinePlacement: Hashable, Sendable {
    /// Bottom-pinned on the newest message.
    case bottom
    /// The given message at the top of the viewport (an unread marker); bottom if not loaded.
    case top(of: MessageID)
}
