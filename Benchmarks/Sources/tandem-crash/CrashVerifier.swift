import BenchSupport
import Foundation
import GRDB
import TandemAPI

/// After a restart: every write acknowledged so far, in every cycle, must read back through the
/// server's own routes (issue 14 item 4). Each check reads the whole account or alias, so a
/// write lost by a later crash is found as surely as one lost by its own.
struct CrashVerifier {
    let client: CrashClient
    let fixture: CrashFixture
    let ledger: CrashLedger

    /// What one verification checked and what it found missing.
    struct Outcome {
        var sessions = 0
        var relay = 0
        var nodes = 0
        var contacts = 0
        var lost: [String] = []
    }

    private struct NodePage: Decodable {
        struct Node: Decodable { let id: String }
        let cursor: String
        let hasMore: Bool
        let nodes: [Node]
    }

    func verify() async throws -> Outcome {
        var outcome = Outcome()
        _ = try await client.send(.GET, APIPath.health)
        try await checkSessions(&outcome)
        try await checkRelay(&outcome)
        try await checkNodes(&outcome)
        try await checkContacts(&outcome)
        return outcome
    }

    /// get-session with each acknowledged cookie resolves to the user it was issued for.
    private func checkSessions(_ outcome: inout Outcome) async throws {
        for session in ledger.sessions {
            let resolved = try await client.sessionUserID(cookie: session.cookie)
            outcome.sessions += 1
            if resolved != session.userID {
                outcome.lost.append(
                    "session of user \(session.userID): get-session resolves to \(resolved ?? "null")")
            }
        }
    }

    /// Each acknowledged tx_id is among the relay's rows for its sender and alias.
    private func checkRelay(_ outcome: inout Outcome) async throws {
        for (aliasHex, acknowledged) in ledger.relay.sorted(by: { $0.key < $1.key }) {
            var stored: Set<String> = []
            var cursor: UInt64 = 0
            while true {
                let path =
                    APIPath.kasiaContextualMessagesBySender
                    + "?address=\(fixture.relaySender)&alias=\(aliasHex)&block_time=\(cursor)&limit=50"
                let rows = try client.decode([IndexerContextualMessage].self, try await client.send(.GET, path), path)
                stored.formUnion(rows.map(\.txID))
                guard rows.count == 50, let last = rows.last else { break }
                cursor = last.blockTime + 1
            }
            outcome.relay += acknowledged.count
            for txID in acknowledged.subtracting(stored).sorted() {
                outcome.lost.append("relay tx \(txID) (alias \(aliasHex)) is not readable")
            }
        }
    }

    /// Each accepted node id is in the owner's feed.
    private func checkNodes(_ outcome: inout Outcome) async throws {
        let acknowledged = ledger.nodeIDs
        var stored: Set<String> = []
        var after = ""
        while true {
            let path = APIPath.redoNodes + "?limit=1000" + (after.isEmpty ? "" : "&after=\(after)")
            let page = try client.decode(
                NodePage.self, try await client.send(.GET, path, cookie: fixture.owner.cookie), path)
            stored.formUnion(page.nodes.map(\.id))
            guard page.hasMore else { break }
            after = page.cursor
        }
        outcome.nodes += acknowledged.count
        for id in acknowledged.subtracting(stored).sorted() { outcome.lost.append("node \(id) is not in the feed") }
    }

    /// Each contact record is stored at its acknowledged version or a later one.
    private func checkContacts(_ outcome: inout Outcome) async throws {
        let acknowledged = ledger.contacts
        var stored: [String: Int64] = [:]
        var after = ""
        while true {
            let path = APIPath.contactRecords + "?limit=1000" + (after.isEmpty ? "" : "&after=\(after)")
            let page = try client.decode(
                ContactRecordPage.self, try await client.send(.GET, path, cookie: fixture.owner.cookie), path)
            for record in page.records { stored[record.id] = record.version }
            guard page.hasMore else { break }
            after = page.cursor
        }
        outcome.contacts += acknowledged.count
        for (id, version) in acknowledged.sorted(by: { $0.key < $1.key }) where (stored[id] ?? 0) < version {
            outcome.lost.append("contact record \(id): acknowledged version \(version), stored \(stored[id] ?? 0)")
        }
    }

    /// `PRAGMA integrity_check` and `foreign_key_check` on a SQLite file left by a SIGKILL,
    /// opened read-only so the check sees the file (and its WAL) exactly as the crash left it
    /// and repairs nothing. Returns the problems found; empty when the database is clean.
    static func integrityProblems(_ file: URL) throws -> [String] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: file.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            let foreignKeys = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
            return (integrity == ["ok"] ? [] : integrity.map { "\(file.lastPathComponent): \($0)" })
                + foreignKeys.map { "\(file.lastPathComponent): foreign key violation \($0)" }
        }
    }
}
