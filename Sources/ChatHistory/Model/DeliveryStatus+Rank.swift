import ChatTimeline

extension DeliveryStatus {
    /// Merge precedence for duplicate deliveries: a later copy never downgrades a row
    /// (pending < failed < sent < confirmed, after KaChat's display priority, kasia-protocol.md §8).
    var rank: Int {
        switch self {
        case .pending: 0
        case .failed: 1
        case .sent: 2
        case .confirmed: 3
        }
    }
}
