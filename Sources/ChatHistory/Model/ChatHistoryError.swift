/// What was wrong with an input to, or a row read from, the chat history store.
public enum ChatHistoryError: Error, Hashable, Sendable {
    /// SQLite integers are signed 64-bit; a blockTime above `Int64.max` cannot be stored.
    case blockTimeOutOfRange(UInt64)
    /// A payment amount above `Int64.max` sompi cannot be stored (nor exists: 2.9 × 10^18 sompi).
    case amountOutOfRange(UInt64)
    /// A page limit must be at least 1.
    case invalidPageLimit(Int)
    /// A stored row's column could not be read back (wrong type, size or enum value).
    case corruptColumn(String)
}
