import Foundation
public import GRDB
public import KasiaProtocol
public import KaspaCrypto
public import TandemBasics

/// Routing states and the global rollout policy, persisted in SQLite (one file per wallet).
///
/// Each conversation is one row; writes that touch several rows run in one transaction.
public struct RoutingStore: Sendable {
    let writer: any DatabaseWriter

    /// Opens (creating if needed) the store in a SQLite file, in WAL mode.
    public init(path: String) throws {
        // Several processes may share a profile (`tandem chat listen` beside `tandem chat send`):
        // a writer waits for the other's transaction instead of failing with SQLITE_BUSY.
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        try self.init(writer: DatabasePool(path: path, configuration: configuration))
    }

    /// Wraps any GRDB writer (an in-memory `DatabaseQueue()` in tests).
    public init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    /// Every conversation's state.
    public func fetchTable() throws -> RoutingTable {
        try writer.read { db in RoutingTable(try Self.fetchStates(db)) }
    }

    /// One conversation's state.
    public func fetchOne(_ contact: KaspaAddress) throws -> ConversationRoutingState? {
        try writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM routingState WHERE contact = ?", arguments: [contact.description])
                .map(Self.state(from:))
        }
    }

    /// Inserts or replaces states in one transaction.
    public func save(_ states: some Sequence<ConversationRoutingState>) throws {
        let states = Array(states)
        try writer.write { db in
            for state in states { try Self.upsert(state, db) }
        }
    }

    /// The global policy (stage); the default is stage A.
    public func policy() throws -> RoutingPolicy {
        try writer.read { db in
            guard let data = try Data.fetchOne(db, sql: "SELECT value FROM routingSetting WHERE key = 'policy'") else {
                return RoutingPolicy()
            }
            return try JSONDecoder().decode(RoutingPolicy.self, from: data)
        }
    }

    public func setPolicy(_ policy: RoutingPolicy) throws {
        let data = try JSONEncoder().encode(policy)
        try writer.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO routingSetting (key, value) VALUES ('policy', ?)", arguments: [data])
        }
    }

    /// Phase 5 cleanup, persisted: drops stale legacy aliases and returns the contacts changed.
    public func purgeStaleLegacyAliases(now: UnixMillis, retentionMs: UInt64) throws -> [KaspaAddress] {
        try writer.write { db in
            var table = RoutingTable(try Self.fetchStates(db))
            let changed = table.purgeStaleLegacyAliases(now: now, retentionMs: retentionMs)
            for contact in changed { if let state = table[contact] { try Self.upsert(state, db) } }
            return changed
        }
    }
}

extension RoutingStore {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "routingState") { t in
                t.primaryKey("contact", .text)
                t.column("myAlias", .text).notNull()
                t.column("theirAlias", .text).notNull()
                t.column("legacyIncoming", .text).notNull()
                t.column("legacyOutgoing", .text).notNull()
                t.column("mode", .text).notNull()
                t.column("peerSupportsDeterministic", .boolean).notNull()
                t.column("deterministicAliasKnownToPeer", .boolean).notNull()
                t.column("lastLegacyIncomingAtMs", .integer)
                t.column("lastDeterministicIncomingAtMs", .integer)
                t.column("createdAtMs", .integer).notNull()
            }
            try db.create(table: "routingSetting") { t in
                t.primaryKey("key", .text)
                t.column("value", .blob).notNull()
            }
            try db.create(table: "routingMigration") { t in
                t.primaryKey("name", .text)
                t.column("completedAtMs", .integer).notNull()
                t.column("report", .blob).notNull()
            }
        }
        // Issue 24 item 5: the user's capability toggle or legacy pin per conversation.
        migrator.registerMigration("v2 preference") { db in
            try db.alter(table: "routingState") { t in
                t.add(column: "preference", .text).notNull().defaults(to: RoutingPreference.auto.rawValue)
            }
        }
        // KaChat's conversation id per contact (kasia-protocol §5.1): a response echoes it.
        migrator.registerMigration("v3 conversation id") { db in
            try db.alter(table: "routingState") { t in t.add(column: "conversationId", .text) }
        }
        // Issue 43 item 2: the root the peer last wrote under, and the user's pin of a root.
        migrator.registerMigration("v4 root") { db in
            try db.alter(table: "routingState") { t in
                t.add(column: "peerRoot", .text)
                t.add(column: "peerRootAtMs", .integer)
                t.add(column: "rootPreference", .text).notNull().defaults(to: RootPreference.auto.rawValue)
            }
        }
        // Issue 43 item 3: the app the peer's payloads show (its payment form).
        migrator.registerMigration("v5 peer app") { db in
            try db.alter(table: "routingState") { t in
                t.add(column: "peerApp", .text)
                t.add(column: "peerAppAtMs", .integer)
            }
        }
        return migrator
    }

    static func fetchStates(_ db: Database) throws -> [ConversationRoutingState] {
        try Row.fetchAll(db, sql: "SELECT * FROM routingState").map(state(from:))
    }

    static func upsert(_ state: ConversationRoutingState, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO routingState (contact, myAlias, theirAlias, legacyIncoming, legacyOutgoing, mode,
                  peerSupportsDeterministic, deterministicAliasKnownToPeer, lastLegacyIncomingAtMs,
                  lastDeterministicIncomingAtMs, createdAtMs, preference, conversationId, peerRoot, peerRootAtMs,
                  rootPreference, peerApp, peerAppAtMs)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                state.contactAddress.description, state.deterministic.myAlias.rawValue,
                state.deterministic.theirAlias.rawValue,
                aliasList(state.legacyIncomingAliases), aliasList(state.legacyOutgoingAliases), state.mode.rawValue,
                state.peerSupportsDeterministic, state.deterministicAliasKnownToPeer,
                state.lastLegacyIncomingAt?.rawValue, state.lastDeterministicIncomingAt?.rawValue,
                state.createdAt.rawValue, state.preference.rawValue, state.conversationID,
                state.peerRoot?.root.rawValue, state.peerRoot?.at.rawValue, state.rootPreference.rawValue,
                state.peerApp?.app.rawValue, state.peerApp?.at.rawValue,
            ])
    }

    /// Aliases as one sorted, space-separated text column (aliases never contain spaces).
    static func aliasList(_ aliases: Set<Alias>) -> String {
        aliases.map(\.rawValue).sorted().joined(separator: " ")
    }

    static func state(from row: Row) throws -> ConversationRoutingState {
        // Columns are read with GRDB's throwing decoders: a value of the wrong type is a
        // `corruptRow` naming the contact, never a trap.
        let contactText = (try? row.decode(String.self, forColumn: "contact")) ?? "?"
        do {
            let contact = try KaspaAddress(contactText)
            let pair = AliasPair(
                myAlias: try Alias(try row.decode(String.self, forColumn: "myAlias")),
                theirAlias: try Alias(try row.decode(String.self, forColumn: "theirAlias")))
            var state = ConversationRoutingState(
                contact: contact, deterministic: pair,
                legacyIncoming: try aliases(try row.decode(String.self, forColumn: "legacyIncoming")),
                legacyOutgoing: try aliases(try row.decode(String.self, forColumn: "legacyOutgoing")),
                now: UnixMillis(try row.decode(Int64.self, forColumn: "createdAtMs")))
            guard let mode = AliasMode(rawValue: try row.decode(String.self, forColumn: "mode")) else {
                throw RoutingStoreError.corruptRow(contact: contactText, reason: "mode")
            }
            state.mode = mode
            guard let preference = RoutingPreference(rawValue: try row.decode(String.self, forColumn: "preference"))
            else { throw RoutingStoreError.corruptRow(contact: contactText, reason: "preference") }
            state.preference = preference
            state.peerSupportsDeterministic = try row.decode(Bool.self, forColumn: "peerSupportsDeterministic")
            state.deterministicAliasKnownToPeer = try row.decode(Bool.self, forColumn: "deterministicAliasKnownToPeer")
            state.lastLegacyIncomingAt = try row.decode(Int64?.self, forColumn: "lastLegacyIncomingAtMs").map(
                UnixMillis.init)
            state.lastDeterministicIncomingAt = try row.decode(Int64?.self, forColumn: "lastDeterministicIncomingAtMs")
                .map(UnixMillis.init)
            state.conversationID = try row.decode(String?.self, forColumn: "conversationId")
            if let rootText = try row.decode(String?.self, forColumn: "peerRoot") {
                guard let root = KasiaRoot(rawValue: rootText),
                    let at = try row.decode(Int64?.self, forColumn: "peerRootAtMs")
                else { throw RoutingStoreError.corruptRow(contact: contactText, reason: "peerRoot") }
                state.peerRoot = RootEvidence(root: root, at: UnixMillis(at))
            }
            guard
                let rootPreference = RootPreference(rawValue: try row.decode(String.self, forColumn: "rootPreference"))
            else { throw RoutingStoreError.corruptRow(contact: contactText, reason: "rootPreference") }
            state.rootPreference = rootPreference
            if let appText = try row.decode(String?.self, forColumn: "peerApp") {
                guard let app = PeerApp(rawValue: appText),
                    let at = try row.decode(Int64?.self, forColumn: "peerAppAtMs")
                else { throw RoutingStoreError.corruptRow(contact: contactText, reason: "peerApp") }
                state.peerApp = PeerAppEvidence(app: app, at: UnixMillis(at))
            }
            return state
        } catch let error as RoutingStoreError {
            throw error
        } catch {
            throw RoutingStoreError.corruptRow(contact: contactText, reason: "\(error)")
        }
    }

    static func aliases(_ text: String) throws -> Set<Alias> {
        Set(try text.split(separator: " ").map { try Alias($0) })
    }
}
