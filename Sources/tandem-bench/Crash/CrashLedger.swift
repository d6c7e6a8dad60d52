import Foundation

/// Every write the server acknowledged (a complete 2xx answer), across all cycles, and every
/// answer that must not happen (a 5xx, an unexpected status): what the verifier checks after
/// each restart (issue 14 item 4).
///
/// `@unchecked Sendable`: the writer threads of a burst share one ledger; every stored
/// property is read and written only under `lock`.
final class CrashLedger: @unchecked Sendable {
    /// A session cookie and the user it must resolve to.
    struct Session {
        let cookie: String
        let userID: String
    }

    private let lock = NSLock()
    private var storedSessions: [Session] = []
    private var storedRelay: [String: Set<String>] = [:]
    private var storedNodes: Set<String> = []
    private var storedContacts: [String: Int64] = [:]
    private var storedAcks: [CrashWriteKind: Int] = [:]
    private var storedAttempts: [CrashWriteKind: Int] = [:]
    private var storedFailures: [String] = []

    /// `items` writes sent in one request (nodes per push, records per put).
    func attempt(_ kind: CrashWriteKind, items: Int = 1) { lock.withLock { storedAttempts[kind, default: 0] += items } }

    func session(_ session: Session, kind: CrashWriteKind) {
        lock.withLock {
            storedSessions.append(session)
            storedAcks[kind, default: 0] += 1
        }
    }

    func relay(txID: String, aliasHex: String) {
        lock.withLock {
            storedRelay[aliasHex, default: []].insert(txID)
            storedAcks[.relay, default: 0] += 1
        }
    }

    func nodes(_ ids: [String]) {
        lock.withLock {
            storedNodes.formUnion(ids)
            storedAcks[.node, default: 0] += ids.count
        }
    }

    func contact(id: String, version: Int64) {
        lock.withLock {
            storedContacts[id] = max(storedContacts[id] ?? 0, version)
            storedAcks[.contact, default: 0] += 1
        }
    }

    /// An answer that fails the run whatever the verification finds (a 5xx, a refusal of a
    /// well-formed write).
    func fail(_ message: String) { lock.withLock { storedFailures.append(message) } }

    var sessions: [Session] { lock.withLock { storedSessions } }
    var relay: [String: Set<String>] { lock.withLock { storedRelay } }
    var nodeIDs: Set<String> { lock.withLock { storedNodes } }
    var contacts: [String: Int64] { lock.withLock { storedContacts } }
    var failures: [String] { lock.withLock { storedFailures } }
    func acks(_ kind: CrashWriteKind) -> Int { lock.withLock { storedAcks[kind] ?? 0 } }
    func attempts(_ kind: CrashWriteKind) -> Int { lock.withLock { storedAttempts[kind] ?? 0 } }
}

/// The writes a burst makes: the list (sign-ups, sessions, relay submissions, node
/// pushes, contact records).
enum CrashWriteKind: String, CaseIterable, Codable, Sendable {
    case signUp = "sign-up"
    case signIn = "sign-in"
    case relay
    case node
    case contact
}
