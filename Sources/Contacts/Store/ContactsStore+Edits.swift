public import TandemBasics

/// Local edits (seed 002 operations, what the app and the CLI call).
extension ContactsStore {
    /// Adds a contact, or re-adds a deleted one with fresh fields. On a live contact a manual add
    /// clears `isAutoAdded` and a given alias renames.
    @discardableResult
    public func add(_ address: ContactAddress, wallet: ContactAddress, alias: String? = nil, isAutoAdded: Bool = false)
        throws -> Contact
    {
        let key = ContactKey(wallet: wallet, address: address)
        let record = try edit(key) { current, stamp, now in
            guard let current else {
                return ContactRecord.added(key: key, stamp: stamp, addedAt: now, alias: alias, isAutoAdded: isAutoAdded)
            }
            return current.adding(stamp: stamp, addedAt: now, alias: alias, isAutoAdded: isAutoAdded)
        }
        guard let record else { throw ContactsError.contactNotFound(address.description) }
        return record.contact
    }

    /// Sets the user's alias; an empty alias clears it.
    @discardableResult
    public func rename(_ address: ContactAddress, wallet: ContactAddress, to alias: String) throws -> Contact {
        try editLive(address, wallet: wallet) { record, stamp throws(ContactsError) in
            try record.renaming(to: alias, stamp: stamp)
        }
    }

    /// Stores what a KNS lookup returned for the address.
    @discardableResult
    public func setKNSName(_ address: ContactAddress, wallet: ContactAddress, to name: String) throws -> Contact {
        try editLive(address, wallet: wallet) { record, stamp throws(ContactsError) in
            try record.settingKNSName(name, stamp: stamp)
        }
    }

    @discardableResult
    public func setNotificationsMuted(_ address: ContactAddress, wallet: ContactAddress, _ muted: Bool) throws
        -> Contact
    {
        try editLive(address, wallet: wallet) { record, stamp throws(ContactsError) in
            try record.settingNotificationsMuted(muted, stamp: stamp)
        }
    }

    @discardableResult
    public func setRealtimeUpdatesDisabled(_ address: ContactAddress, wallet: ContactAddress, _ disabled: Bool) throws
        -> Contact
    {
        try editLive(address, wallet: wallet) { record, stamp throws(ContactsError) in
            try record.settingRealtimeUpdatesDisabled(disabled, stamp: stamp)
        }
    }

    /// Deletes: the record becomes a tombstone, purged after 30 days.
    @discardableResult
    public func remove(_ address: ContactAddress, wallet: ContactAddress) throws -> Contact {
        try editLive(address, wallet: wallet) { record, stamp throws(ContactsError) in try record.deleting(stamp: stamp)
        }
    }

    /// A message to or from `address` at `time`: moves `lastMessageAt`, auto-adds an unknown
    /// contact, and re-adds a deleted one only for a message newer than the delete (§3.5
    /// scenario 5). Returns the contact when it is live afterwards.
    @discardableResult
    public func recordMessage(from address: ContactAddress, wallet: ContactAddress, at time: UnixMillis) throws
        -> Contact?
    {
        let key = ContactKey(wallet: wallet, address: address)
        let record = try edit(key) { current, stamp, now in
            guard let current else {
                return ContactRecord.added(
                    key: key, stamp: stamp, addedAt: now, alias: nil, isAutoAdded: true, lastMessageAt: time)
            }
            return current.seeingMessage(at: time, stamp: stamp, now: now)
        }
        return record.flatMap { $0.isAlive ? $0.contact : nil }
    }

    private func editLive(
        _ address: ContactAddress, wallet: ContactAddress,
        _ change: (ContactRecord, HLCTimestamp) throws(ContactsError) -> ContactRecord
    ) throws -> Contact {
        let record = try edit(ContactKey(wallet: wallet, address: address)) { current, stamp, _ in
            guard let current, !current.isPurged else { throw ContactsError.contactNotFound(address.description) }
            return try change(current, stamp)
        }
        guard let record else { throw ContactsError.contactNotFound(address.description) }
        return record.contact
    }
}
