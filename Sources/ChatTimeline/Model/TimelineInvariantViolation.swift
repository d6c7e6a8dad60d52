/// A broken engine invariant, as reported by `TimelineEngine.invariantViolations()`.
public enum TimelineInvariantViolation: Hashable, Sendable {
    /// Two neighbouring loaded rows are not in strictly increasing key order.
    case keysNotIncreasing(MessageKey, MessageKey)
    case duplicateID(MessageID)
    case duplicateTxID(TxID)
    /// The engine's offset lies outside the scrollable range.
    case offsetOutOfRange(Double)
}
