import Foundation
import GRDB
import KasiaProtocol
public import KaspaCrypto
public import TandemBasics

/// What a legacy migration did.
public struct LegacyMigrationReport: Sendable, Equatable, Codable {
    /// False when the migration had already run and nothing was written.
    public var performed: Bool
    public var contacts: Int
    public var hybrid: Int
    public var deterministicOnly: Int
    public var skipped: [String]
}

extension RoutingStore {
    static let legacyMigrationName = "legacy-aliases-v1"

    /// The one-time migration of seed 000 §4.1: every contact gets a routing state with its
    /// deterministic pair, legacy aliases go into the legacy sets, and the mode is `hybrid` where
    /// legacy data exists, else `deterministicOnly`.
    ///
    /// One SQLite transaction with its done-flag: a crash leaves the old state, a re-run after a
    /// crash does everything, and a run after success changes nothing. States that already exist
    /// (contacts met after a partial upgrade) keep their evidence and gain the legacy aliases.
    ///
    /// `beforeEachWrite` exists for crash tests: throwing from it aborts the transaction.
    public func migrateLegacy(
        _ snapshot: LegacySnapshot, privateKey: PrivateKey, now: UnixMillis,
        beforeEachWrite: (Int) throws -> Void = { _ in }
    ) throws -> LegacyMigrationReport {
        // Derive outside the write transaction: it is all curve arithmetic, no I/O.
        var derived: [(String, KaspaAddress, AliasPair, LegacySnapshot.Entry)] = []
        derived.reserveCapacity(snapshot.contacts.count)
        for (contact, entry) in snapshot.contacts {
            derived.append(
                (contact.description, contact, try AliasPair(privateKey: privateKey, peer: entry.key), entry))
        }
        derived.sort { $0.0 < $1.0 }
        return try writer.write { db in
            if try Bool.fetchOne(
                db, sql: "SELECT 1 FROM routingMigration WHERE name = ?", arguments: [Self.legacyMigrationName]) == true
            {
                return LegacyMigrationReport(
                    performed: false, contacts: 0, hybrid: 0, deterministicOnly: 0, skipped: [])
            }
            var report = LegacyMigrationReport(
                performed: true, contacts: 0, hybrid: 0, deterministicOnly: 0, skipped: snapshot.skipped)
            // One read of what exists (usually nothing on a first run), not a query per contact.
            var existingStates: [String: ConversationRoutingState] = [:]
            for state in try Self.fetchStates(db) { existingStates[state.contactAddress.description] = state }
            for (index, (text, contact, pair, entry)) in derived.enumerated() {
                try beforeEachWrite(index)
                let existing = existingStates[text]
                let state = Self.merged(existing, contact: contact, pair: pair, entry: entry, now: now)
                try Self.upsert(state, db)
                report.contacts += 1
                if state.mode == .hybrid {
                    report.hybrid += 1
                } else if state.mode == .deterministicOnly {
                    report.deterministicOnly += 1
                }
            }
            try db.execute(
                sql: "INSERT INTO routingMigration (name, completedAtMs, report) VALUES (?, ?, ?)",
                arguments: [Self.legacyMigrationName, now.rawValue, try JSONEncoder().encode(report)])
            return report
        }
    }

    /// Whether the legacy migration has completed.
    public func legacyMigrationCompleted() throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM routingMigration WHERE name = ?", arguments: [Self.legacyMigrationName]) == true
        }
    }

    static func merged(
        _ existing: ConversationRoutingState?, contact: KaspaAddress, pair: AliasPair,
        entry: LegacySnapshot.Entry, now: UnixMillis
    ) -> ConversationRoutingState {
        guard var state = existing else {
            return ConversationRoutingState(
                contact: contact, deterministic: pair, legacyIncoming: entry.legacyIncoming,
                legacyOutgoing: entry.legacyOutgoing, now: now)
        }
        state.legacyIncomingAliases.formUnion(entry.legacyIncoming)
        state.legacyOutgoingAliases.formUnion(entry.legacyOutgoing)
        if state.mode == .deterministicOnly, state.hasLegacyData, !state.peerSupportsDeterministic {
            state.mode = .hybrid
        }
        return state
    }
}
