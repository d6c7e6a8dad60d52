/// One debounced event of the change feed.
public struct ContactChangeBatch: Sendable, Hashable {
    /// Every key that changed since the previous event of this subscriber.
    public let changedKeys: Set<ContactKey>
    /// The subscriber's wallet's watched addresses after the batch.
    public let watchedAddresses: Set<ContactAddress>
    /// Whether `watchedAddresses` differs from the previous event's (or the initial set).
    public let watchedSetChanged: Bool
}

/// What a subscriber wants to hear about.
public enum ContactChangeInterest: Sendable, Hashable {
    /// Every batch of changed keys.
    case allChanges
    /// Only batches that change the watched-address set (push registration, UTXO
    /// subscriptions): alias-only or `lastMessageAt`-only changes never wake them (§3.3).
    case watchedSetOnly
}
