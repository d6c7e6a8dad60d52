public import TandemBasics

/// Local edits as pure functions of the previous state and a fresh HLC stamp. The store takes the
/// stamp from its clock; tests pass stamps directly.
extension ContactRecord {
    /// A first add (no record yet): causal length 1.
    public static func added(
        key: ContactKey, stamp: HLCTimestamp, addedAt: UnixMillis, alias: String?, isAutoAdded: Bool,
        lastMessageAt: UnixMillis? = nil
    ) -> ContactRecord {
        ContactRecord(
            key: key, causalLength: 1, isPurged: false, deletedAt: nil,
            payload: .fresh(
                addedAt: addedAt, stamp: stamp, alias: alias ?? "", isAutoAdded: isAutoAdded,
                lastMessageAt: lastMessageAt))
    }

    /// Adds again. A deleted (or purged) contact gets a new incarnation with fresh fields; a live
    /// one keeps its fields, except that a manual add writes `isAutoAdded = false` (§3.3) and a
    /// given alias is a rename.
    public func adding(stamp: HLCTimestamp, addedAt: UnixMillis, alias: String?, isAutoAdded: Bool) -> ContactRecord {
        guard isAlive else {
            return ContactRecord(
                key: key, causalLength: causalLength + 1, isPurged: false, deletedAt: nil,
                payload: .fresh(
                    addedAt: addedAt, stamp: stamp, alias: alias ?? "", isAutoAdded: isAutoAdded,
                    lastMessageAt: nil))
        }
        var next = payload
        if !isAutoAdded { next.isAutoAdded = LWWRegister(false, stamp: stamp) }
        if let alias { next.userAlias = LWWRegister(alias, stamp: stamp) }
        return replacingPayload(next)
    }

    /// Sets the user's alias; an empty alias clears it (the KNS name or auto alias shows again).
    public func renaming(to alias: String, stamp: HLCTimestamp) throws(ContactsError) -> ContactRecord {
        var next = try livePayload()
        next.userAlias = LWWRegister(alias, stamp: stamp)
        return replacingPayload(next)
    }

    /// Records what a KNS lookup found for the address (its own register, §3.3).
    public func settingKNSName(_ name: String, stamp: HLCTimestamp) throws(ContactsError) -> ContactRecord {
        var next = try livePayload()
        next.knsName = LWWRegister(name, stamp: stamp)
        return replacingPayload(next)
    }

    public func settingNotificationsMuted(_ muted: Bool, stamp: HLCTimestamp) throws(ContactsError) -> ContactRecord {
        var next = try livePayload()
        next.notificationsMuted = LWWRegister(muted, stamp: stamp)
        return replacingPayload(next)
    }

    public func settingRealtimeUpdatesDisabled(_ disabled: Bool, stamp: HLCTimestamp) throws(ContactsError)
        -> ContactRecord
    {
        var next = try livePayload()
        next.realtimeUpdatesDisabled = LWWRegister(disabled, stamp: stamp)
        return replacingPayload(next)
    }

    /// Deletes: bumps the causal length to even and keeps the payload as the tombstone's.
    public func deleting(stamp: HLCTimestamp) throws(ContactsError) -> ContactRecord {
        _ = try livePayload()
        return ContactRecord(
            key: key, causalLength: causalLength + 1, isPurged: false, deletedAt: stamp,
            payload: payload)
    }

    /// A message to or from the contact at `time`. Live: `lastMessageAt` moves forward. Deleted:
    /// only a message newer than the delete re-adds the contact as auto-added; an old message
    /// from a history backfill does not (§3.3, §3.5 scenario 5). Nil when nothing changes.
    public func seeingMessage(at time: UnixMillis, stamp: HLCTimestamp, now: UnixMillis) -> ContactRecord? {
        if isAlive {
            guard payload.lastMessageAt.map({ time > $0 }) ?? true else { return nil }
            var next = payload
            next.lastMessageAt = time
            return replacingPayload(next)
        }
        guard let deletedAt, time.rawValue > deletedAt.wallMillis else { return nil }
        return ContactRecord(
            key: key, causalLength: causalLength + 1, isPurged: false, deletedAt: nil,
            payload: .fresh(addedAt: now, stamp: stamp, alias: "", isAutoAdded: true, lastMessageAt: time))
    }

    /// The tombstone reduced to its skeleton (§3.3 "Purge after 30 days"); nil for a live record.
    public func purging() -> ContactRecord? {
        guard isDeleted else { return nil }
        return ContactRecord(
            key: key, causalLength: causalLength, isPurged: true, deletedAt: deletedAt, payload: .skeleton)
    }

    private func livePayload() throws(ContactsError) -> ContactPayload {
        guard isAlive else { throw .contactDeleted(key.address.description) }
        return payload
    }

    private func replacingPayload(_ next: ContactPayload) -> ContactRecord {
        ContactRecord(key: key, causalLength: causalLength, isPurged: isPurged, deletedAt: deletedAt, payload: next)
    }
}
