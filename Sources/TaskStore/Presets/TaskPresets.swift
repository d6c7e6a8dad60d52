import Foundation
import GRDB
public import RedoApp
public import TandemBasics

/// The profile's saved task filters, in the task database (`tasks.sqlite`, table `preset`).
///
/// Names are what people use; ids are what syncs. Two devices may each save a preset under the
/// same name before they sync: both records survive, the one that wins by stamp is the one
/// `list` shows and `preset(named:)` finds, and the next save of that name on any device writes
/// over it and deletes the others.
public struct TaskPresets: Sendable {
    let writer: any DatabaseWriter
    /// This device: the tie-break between equal stamps.
    public let origin: String
    private let randomBytes: @Sendable (Int) -> [UInt8]

    /// The presets in the editor's task database, this device's id breaking ties.
    public init(editor: TaskEditor) {
        self.init(log: editor.log, origin: editor.identity.deviceID.description)
    }

    public init(
        log: TaskLog, origin: String, randomBytes: @escaping @Sendable (Int) -> [UInt8] = TaskEditor.systemRandomBytes
    ) {
        writer = log.writer
        self.origin = origin
        self.randomBytes = randomBytes
    }

    /// At most this many characters, so a list stays readable.
    public static let maximumNameLength = 80

    /// The presets by name, the winning record of each name, sorted by name.
    public func list() throws(TaskPresetError) -> [TaskPreset] {
        let all = try storing { try writer.read { db in try Self.all(db) } }
        var byName: [String: TaskPreset] = [:]
        for preset in all where !preset.deleted {
            if let current = byName[preset.name], current.supersedes(preset) { continue }
            byName[preset.name] = preset
        }
        return byName.values.sorted { $0.name < $1.name }
    }

    /// The preset called `name`, or nil.
    public func preset(named name: String) throws(TaskPresetError) -> TaskPreset? {
        let wanted = try Self.check(name)
        return try list().first { $0.name == wanted }
    }

    /// Saves `query` under `name`: over the preset of that name if there is one (and deletes
    /// any other record of the same name), else as a new preset.
    @discardableResult
    public func save(name: String, query: TaskQuery, now: UnixMillis) throws(TaskPresetError) -> TaskPreset {
        let name = try Self.check(name)
        let id = Hex.encode(randomBytes(32))
        return try storing {
            try writer.write { db in
                let stamp = try Self.nextStamp(db, now: now)
                let same = try Self.all(db).filter { !$0.deleted && $0.name == name }
                let winner = same.max { $1.supersedes($0) }
                let preset = TaskPreset(
                    id: winner?.id ?? id, name: name, query: query, stamp: stamp, origin: origin, deleted: false)
                try Self.write(preset, db)
                for other in same where other.id != preset.id {
                    try Self.write(Self.deleted(other, stamp: stamp, origin: origin), db)
                }
                return preset
            }
        }
    }

    /// Renames the preset called `old`; `new` must not name another preset. Other records of
    /// the old name (saved on two devices before they synced) are deleted, as a save deletes
    /// them, so the old name does not come back.
    @discardableResult
    public func rename(_ old: String, to new: String, now: UnixMillis) throws(TaskPresetError) -> TaskPreset {
        let (old, new) = (try Self.check(old), try Self.check(new))
        return try storing {
            try writer.write { db in
                let live = try Self.all(db).filter { !$0.deleted }
                let same = live.filter { $0.name == old }
                guard var preset = same.max(by: { $1.supersedes($0) }) else { throw TaskPresetError.unknown(old) }
                if old != new, live.contains(where: { $0.name == new }) { throw TaskPresetError.exists(new) }
                let stamp = try Self.nextStamp(db, now: now)
                preset.name = new
                preset.stamp = stamp
                preset.origin = origin
                try Self.write(preset, db)
                for other in same where other.id != preset.id {
                    try Self.write(Self.deleted(other, stamp: stamp, origin: origin), db)
                }
                return preset
            }
        }
    }

    /// Deletes every record called `name` (a tombstone each, so the delete syncs).
    public func delete(named name: String, now: UnixMillis) throws(TaskPresetError) {
        let name = try Self.check(name)
        try storing {
            try writer.write { db in
                let same = try Self.all(db).filter { !$0.deleted && $0.name == name }
                guard !same.isEmpty else { throw TaskPresetError.unknown(name) }
                let stamp = try Self.nextStamp(db, now: now)
                for preset in same { try Self.write(Self.deleted(preset, stamp: stamp, origin: origin), db) }
            }
        }
    }

    // MARK: sync

    /// A record the server has not got, with the version its write must name.
    public struct Outgoing: Sendable, Equatable {
        public let preset: TaskPreset
        public let baseVersion: Int64
    }

    /// Every record changed here since the server last had it.
    public func outgoing() throws(TaskPresetError) -> [Outgoing] {
        try storing {
            try writer.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT \(Self.columns), server_version FROM preset WHERE dirty = 1 ORDER BY id"
                )
                .compactMap { row in
                    try Self.preset(row).map { Outgoing(preset: $0, baseVersion: row["server_version"]) }
                }
            }
        }
    }

    /// The server now holds `preset` at `version`: clean, unless it changed here meanwhile.
    public func pushed(_ preset: TaskPreset, version: Int64) throws(TaskPresetError) {
        try storing {
            try writer.write { db in
                try db.execute(
                    sql: "UPDATE preset SET server_version = ?, dirty = (stamp != ? OR origin != ?) WHERE id = ?",
                    arguments: [version, preset.stamp, preset.origin, preset.id])
            }
        }
    }

    /// Merges a record the server holds at `version`: it replaces the local one when it wins,
    /// else the local one stays, to be pushed over it. The clock moves past its stamp.
    public func merge(_ remote: TaskPreset, version: Int64) throws(TaskPresetError) {
        try storing {
            try writer.write { db in
                try Self.observe(db, stamp: remote.stamp)
                let local = try Row.fetchOne(
                    db, sql: "SELECT \(Self.columns) FROM preset WHERE id = ?", arguments: [remote.id]
                )
                .flatMap { try Self.preset($0) }
                if let local, local.supersedes(remote) {
                    try db.execute(
                        sql: "UPDATE preset SET server_version = ?, dirty = 1 WHERE id = ?",
                        arguments: [version, remote.id])
                } else if let local, local == remote {
                    try db.execute(
                        sql: "UPDATE preset SET server_version = ?, dirty = 0 WHERE id = ?",
                        arguments: [version, remote.id])
                } else {
                    try Self.write(remote, db, serverVersion: version, dirty: false)
                }
            }
        }
    }

    /// The server holds record `id` at `version` in a form this device cannot read (a newer
    /// format, or damaged). A local record of that id keeps what it has, but a change made here
    /// is pushed over that version instead of meeting a 409 on every sync; an unchanged one is
    /// not pushed, so a newer client's record is not overwritten with an older copy.
    public func serverHolds(_ id: String, version: Int64) throws(TaskPresetError) {
        try storing {
            try writer.write { db in
                try db.execute(sql: "UPDATE preset SET server_version = ? WHERE id = ?", arguments: [version, id])
            }
        }
    }

    /// Marks every record as unknown to the server (another server or account: push them all).
    /// Marks a record to be pushed again as it is (sealed anew, over the version the server holds).
    public func markChanged(_ id: String) throws(TaskPresetError) {
        try storing {
            try writer.write { db in try db.execute(sql: "UPDATE preset SET dirty = 1 WHERE id = ?", arguments: [id]) }
        }
    }

    public func forgetServer() throws(TaskPresetError) {
        try storing {
            try writer.write { db in try db.execute(sql: "UPDATE preset SET server_version = 0, dirty = 1") }
        }
    }

    /// Every record, deleted ones too, by id.
    public func allRecords() throws(TaskPresetError) -> [TaskPreset] {
        try storing { try writer.read { db in try Self.all(db) } }
    }

    // MARK: storage

    static let columns = "id, name, query, stamp, origin, deleted"

    private static func all(_ db: Database) throws -> [TaskPreset] {
        try Row.fetchAll(db, sql: "SELECT \(columns) FROM preset ORDER BY id").compactMap { try preset($0) }
    }

    /// A stored row; one whose query no longer decodes is left out rather than failing the list.
    private static func preset(_ row: Row) throws -> TaskPreset? {
        let data: Data = row["query"]
        guard let query = try? JSONDecoder().decode(TaskQuery.self, from: data) else { return nil }
        return TaskPreset(
            id: row["id"], name: row["name"], query: query, stamp: row["stamp"], origin: row["origin"],
            deleted: row["deleted"])
    }

    private static func write(_ preset: TaskPreset, _ db: Database, serverVersion: Int64? = nil, dirty: Bool = true)
        throws
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let query = try encoder.encode(preset.query)
        try db.execute(
            sql: """
                INSERT INTO preset (id, name, query, stamp, origin, deleted, server_version, dirty)
                VALUES (?, ?, ?, ?, ?, ?, COALESCE(?, 0), ?)
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, query = excluded.query,
                    stamp = excluded.stamp, origin = excluded.origin, deleted = excluded.deleted,
                    server_version = COALESCE(?, server_version), dirty = excluded.dirty
                """,
            arguments: [
                preset.id, preset.name, query, preset.stamp, preset.origin, preset.deleted, serverVersion, dirty,
                serverVersion,
            ])
    }

    private static func deleted(_ preset: TaskPreset, stamp: Int64, origin: String) -> TaskPreset {
        var tombstone = preset
        tombstone.deleted = true
        tombstone.stamp = stamp
        tombstone.origin = origin
        return tombstone
    }

    /// The latest stamp a record may carry: the end of year 9999, as for Redo wall times. A
    /// synced record with a later one is refused as unreadable, so the clock cannot run out.
    public static let latestStamp: Int64 = 253_402_300_799_999

    /// The next stamp: now, or one past the latest stamp seen if the clock is behind it.
    private static func nextStamp(_ db: Database, now: UnixMillis) throws -> Int64 {
        let last = try Int64.fetchOne(db, sql: "SELECT last FROM preset_clock WHERE id = 1") ?? 0
        let stamp = max(now.rawValue, min(last, latestStamp) + 1)
        try db.execute(
            sql:
                "INSERT INTO preset_clock (id, last) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET last = excluded.last",
            arguments: [stamp])
        return stamp
    }

    private static func observe(_ db: Database, stamp: Int64) throws {
        try db.execute(
            sql: """
                INSERT INTO preset_clock (id, last) VALUES (1, ?)
                ON CONFLICT (id) DO UPDATE SET last = MAX(last, excluded.last)
                """, arguments: [stamp])
    }

    /// A preset name as stored: trimmed, one line, 1 to ``maximumNameLength`` characters.
    public static func check(_ name: String) throws(TaskPresetError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalidName("must not be empty") }
        guard trimmed.count <= maximumNameLength else {
            throw .invalidName("must be at most \(maximumNameLength) characters")
        }
        guard !trimmed.contains(where: \.isNewline) else { throw .invalidName("must be one line") }
        return trimmed
    }

    private func storing<T>(_ body: () throws -> T) throws(TaskPresetError) -> T {
        do { return try body() } catch let error as TaskPresetError { throw error } catch {
            throw .storage(String(describing: error))
        }
    }
}
