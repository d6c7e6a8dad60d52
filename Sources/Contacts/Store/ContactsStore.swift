public import GRDB
public import TandemBasics

/// The contacts store (seed 002, timeline-and-contacts §3): its own SQLite file, never inside a
/// message store, one record per (wallet, normalised address).
///
/// Every write is one transaction that reads the persisted hybrid logical clock, stamps the
/// change, and saves record and clock together. After commit the changed keys go to ``changes``
/// (the change feed).
public struct ContactsStore: Sendable {
    let writer: any DatabaseWriter
    let clock: any WallClock
    /// This store's replica id: the node of every stamp it issues.
    public let replica: ReplicaID
    /// Where committed changes are announced (``ContactsChangeHub/subscribe(wallet:quietPeriod:maxWait:clock:)``).
    public let changes: ContactsChangeHub

    /// Opens (creating if needed) the store in a SQLite file, in WAL mode with
    /// `synchronous = NORMAL`: a commit is atomic and survives a crash of the app; only a power
    /// loss may drop the last commits, never leave half of one. A 16 MB page cache holds a
    /// 10,000-contact store whole, so a bulk merge never spills pages mid-transaction.
    public init(path: String, clock: any WallClock = SystemClock()) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -16000")
        }
        // Several processes may share a profile (`tandem chat listen` beside `tandem chat send`):
        // a writer waits for the other's transaction instead of failing with SQLITE_BUSY.
        configuration.busyMode = .timeout(5)
        try self.init(writer: DatabasePool(path: path, configuration: configuration), clock: clock)
    }

    /// Wraps any GRDB writer (an in-memory `DatabaseQueue()` in tests). `replica` fixes the
    /// replica id of a new store; an existing store keeps the id it was created with.
    public init(writer: any DatabaseWriter, clock: any WallClock, replica: ReplicaID? = nil) throws {
        try Self.migrator.migrate(writer)
        let stored = try writer.write { db -> String in
            if let existing = try Self.metaValue("replica", in: db) { return existing }
            var generator = SystemRandomNumberGenerator()
            let id = replica ?? ReplicaID.random(using: &generator)
            try Self.setMetaValue(id.rawValue, for: "replica", in: db)
            return id.rawValue
        }
        self.writer = writer
        self.clock = clock
        self.replica = try ReplicaID(stored)
        self.changes = ContactsChangeHub()
    }

    // MARK: reads

    /// The contact at `address`, deleted or not; nil when never added or purged.
    public func contact(_ address: ContactAddress, wallet: ContactAddress) throws -> Contact? {
        guard let record = try record(for: ContactKey(wallet: wallet, address: address)), !record.isPurged else {
            return nil
        }
        return record.contact
    }

    /// The replicated state for one key, skeletons included.
    public func record(for key: ContactKey) throws -> ContactRecord? {
        try writer.read { db in try Self.fetchRecord(key, in: db) }
    }

    /// The wallet's contacts in address order: live ones, plus unpurged tombstones when
    /// `includeDeleted` is set.
    public func contacts(wallet: ContactAddress, includeDeleted: Bool = false) throws -> [Contact] {
        try records(wallet: wallet)
            .filter { !$0.isPurged && (includeDeleted || $0.isAlive) }
            .map(\.contact)
    }

    /// Every record of the wallet (skeletons included), in address order: what sync exports.
    public func records(wallet: ContactAddress) throws -> [ContactRecord] {
        try writer.read { db in
            try Row.fetchAll(
                db, sql: "\(Self.selectRowsSQL) WHERE wallet.address = ? ORDER BY contact.address",
                arguments: [wallet.description]
            )
            .map { try Self.record(from: $0, wallet: wallet) }
        }
    }

    /// The addresses push registration and UTXO subscriptions need (``ContactRecord/isWatched``).
    public func watchedAddresses(wallet: ContactAddress) throws -> Set<ContactAddress> {
        Set(try records(wallet: wallet).filter(\.isWatched).map(\.key.address))
    }

    /// The stored replica clock's last stamp (issued or observed).
    public func lastStamp() throws -> HLCTimestamp? {
        try writer.read { db in try Self.metaValue("hlc", in: db).map { try HLCTimestamp(parsing: $0) } }
    }

    // MARK: writes

    /// Applies one local edit in a transaction with a fresh stamp; publishes the change after commit.
    func edit(
        _ key: ContactKey,
        _ body: (ContactRecord?, HLCTimestamp, UnixMillis) throws -> ContactRecord?
    ) throws -> ContactRecord? {
        let now = clock.now
        let (result, change) = try writer.write { db -> (ContactRecord?, ContactChange?) in
            var hlc = try loadClock(in: db)
            let stamp = hlc.tick(physicalMillis: now.rawValue)
            let current = try Self.fetchRecord(key, in: db)
            guard let next = try body(current, stamp, now), next != current else { return (current, nil) }
            try Self.save(next, in: db)
            try saveClock(hlc, in: db)
            return (next, ContactChange(key: key, isWatched: next.isWatched))
        }
        if let change { changes.publish([change]) }
        return result
    }

    /// Merges remote records (from sync) in one transaction; returns the keys whose state
    /// changed. The clock advances past every received stamp, so later local edits win over
    /// anything seen (§3.5 scenario 1).
    @discardableResult
    public func merge(_ remote: [ContactRecord]) throws -> [ContactKey] {
        let remote = Self.collapsed(remote)
        let changed = try writer.write { db -> [ContactChange] in
            var hlc = try loadClock(in: db)
            let lookup = try StateLookup(rows: RowStatements(db), keys: remote.lazy.map(\.key))
            var changed: [ContactChange] = []
            for incoming in remote {
                incoming.observeStamps(into: &hlc)
                guard let merged = try lookup.mergeAndSave(incoming) else { continue }
                changed.append(ContactChange(key: incoming.key, isWatched: merged.isWatched))
            }
            try saveClock(hlc, in: db)
            return changed
        }
        changes.publish(changed)
        return changed.map(\.key)
    }

    /// The batch with records of the same key merged into one (merge is associative and
    /// commutative, so this changes nothing but the work), in first-seen order.
    static func collapsed(_ records: [ContactRecord]) -> [ContactRecord] {
        var seen = Set<ContactKey>(minimumCapacity: records.count)
        var duplicates = false
        for record in records where !seen.insert(record.key).inserted { duplicates = true }
        guard duplicates else { return records }
        var merged: [ContactKey: ContactRecord] = [:]
        var order: [ContactKey] = []
        for record in records {
            if let existing = merged[record.key] {
                merged[record.key] = existing.merged(with: record)
            } else {
                merged[record.key] = record
                order.append(record.key)
            }
        }
        return order.compactMap { merged[$0] }
    }

    /// Tombstones whose delete is older than `retentionDays` (30 by default, seed 002) lose their
    /// payload and become skeletons that still refuse old live copies (§3.3). Returns the count.
    @discardableResult
    public func purge(retentionDays: Int64 = 30) throws -> Int {
        let now = clock.now
        let horizon = now.adding(days: -retentionDays) ?? UnixMillis(.min)
        let changed = try writer.write { db -> [ContactChange] in
            let rows = try Row.fetchAll(
                db, sql: "\(Self.selectRowsSQL) WHERE contact.tombstoneWall < ?", arguments: [horizon.rawValue])
            var changed: [ContactChange] = []
            for row in rows {
                let record = try Self.record(from: row)
                guard let skeleton = record.purging() else { continue }
                try Self.save(skeleton, in: db)
                changed.append(ContactChange(key: record.key, isWatched: false))
            }
            return changed
        }
        changes.publish(changed)
        return changed.count
    }
}
