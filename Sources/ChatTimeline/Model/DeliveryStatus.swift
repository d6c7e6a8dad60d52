/// Where an outgoing or incoming message stands (kasia-protocol.md §8 `deliveryStatus`).
public enum DeliveryStatus: String, Sendable, CaseIterable {
    case pending
    case sent
    case confirmed
    case failed
}
