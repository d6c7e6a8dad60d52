/// The replicated state of one contact (timeline-and-contacts §3.3): the unit that is stored,
/// synced and merged.
///
/// Existence is a causal length: odd = alive, even = deleted, and every delete or re-add bumps
/// it. The payload belongs to the current incarnation, so an edit made under an older causal
/// length (an edit racing a delete) is dropped by ``merged(with:)`` and never resurrects the
/// contact, while a re-add starts afresh (§3.5 scenario 3). A purged tombstone keeps only
/// (key, causal length, deletedAt), enough to refuse an old live copy (§3.5 scenario 4).
public struct ContactRecord: Sendable, Hashable {
    public let key: ContactKey
    /// Odd: alive; even: deleted. Never decreases.
    public let causalLength: UInt64
    /// True once a tombstone's payload has been dropped (only with an even causal length).
    public let isPurged: Bool
    /// The stamp of the delete that set the current even causal length; nil while alive.
    public let deletedAt: HLCTimestamp?
    public let payload: ContactPayload

    /// Builds a record, normalising what the causal length implies: no `deletedAt` and no purge
    /// while alive, the constant skeleton payload once purged.
    public init(
        key: ContactKey, causalLength: UInt64, isPurged: Bool, deletedAt: HLCTimestamp?, payload: ContactPayload
    ) {
        let alive = causalLength % 2 == 1
        self.key = key
        self.causalLength = causalLength
        self.isPurged = !alive && isPurged
        self.deletedAt = alive ? nil : (deletedAt ?? .legacyFloor)
        self.payload = self.isPurged ? .skeleton : payload
    }

    public var isAlive: Bool { causalLength % 2 == 1 }
    public var isDeleted: Bool { !isAlive }

    /// The join of two states of the same key (§3.3). Order by (causal length, purged) first; the
    /// higher one wins outright. Equal ones merge their payloads field by field and keep the later
    /// delete stamp. This is a join-semilattice, so the merge is commutative, associative and
    /// idempotent (§3.5 scenario 9). Records of different keys are never merged: `self` is returned.
    public func merged(with other: ContactRecord) -> ContactRecord {
        guard other.key == key else { return self }
        if other.causalLength != causalLength { return other.causalLength > causalLength ? other : self }
        if other.isPurged != isPurged { return other.isPurged ? other : self }
        let delete: HLCTimestamp? =
            switch (deletedAt, other.deletedAt) {
            case (nil, nil): nil
            case (let d?, nil), (nil, let d?): d
            case (let a?, let b?): max(a, b)
            }
        return ContactRecord(
            key: key, causalLength: causalLength, isPurged: isPurged, deletedAt: delete,
            payload: payload.merged(with: other.payload))
    }

    /// Every stamp the record carries.
    public var stamps: [HLCTimestamp] {
        payload.stamps + (deletedAt.map { [$0] } ?? [])
    }

    /// Advances a clock past every stamp of the record (floor stamps of migrated values aside).
    func observeStamps(into clock: inout HybridLogicalClock) {
        clock.observe(payload.userAlias.stamp)
        clock.observe(payload.knsName.stamp)
        clock.observe(payload.isAutoAdded.stamp)
        clock.observe(payload.notificationsMuted.stamp)
        clock.observe(payload.realtimeUpdatesDisabled.stamp)
        if let deletedAt { clock.observe(deletedAt) }
    }

    /// The app-facing view with the seed's fields.
    public var contact: Contact { Contact(record: self) }

    /// A live contact is watched (push registration, UTXO subscriptions) unless real-time
    /// updates are disabled for it.
    public var isWatched: Bool { isAlive && !payload.realtimeUpdatesDisabled.value }
}
