import BenchSupport
import TandemBasics

/// Every write the server acknowledged (a complete 2xx answer), across all cycles, and every
/// answer that must not happen (a 5xx, an unexpected status): what the verifier checks after
/// each restart (issue 14 item 4).
///
/// The writer threads of a burst share one ledger.
final class CrashLedger: Sendable {
    /// A session cookie and the user it must resolve to.
    struct Session {
        let cookie: String
        let userID: String
    }

    private struct State {
        var sessions: [Session] = []
        var relay: [String: Set<String>] = [:]
        var nodes: Set<String> = []
        var contacts: [String: Int64] = [:]
        var acks: [CrashWriteKind: Int] = [:]
        var attempts: [CrashWriteKind: Int] = [:]
        var failures: [String] = []
    }

    private let state = Locked(State())

    /// `items` writes sent in one request (nodes per push, records per put).
    func attempt(_ kind: CrashWriteKind, items: Int = 1) { state.withLock { $0.attempts[kind, default: 0] += items } }

    func session(_ session: Session, kind: CrashWriteKind) {
        state.withLock {
            $0.sessions.append(session)
            $0.acks[kind, default: 0] += 1
        }
    }

    func relay(txID: String, aliasHex: String) {
        state.withLock {
            $0.relay[aliasHex, default: []].insert(txID)
            $0.acks[.relay, default: 0] += 1
        }
    }

    func nodes(_ ids: [String]) {
        state.withLock {
            $0.nodes.formUnion(ids)
            $0.acks[.node, default: 0] += ids.count
        }
    }

    func contact(id: String, version: Int64) {
        state.withLock {
            $0.contacts[id] = max($0.contacts[id] ?? 0, version)
            $0.acks[.contact, default: 0] += 1
        }
    }

    /// An answer that fails the run whatever the verification finds (a 5xx, a refusal of a
    /// well-formed write).
    func fail(_ message: String) { state.withLock { $0.failures.append(message) } }

    var sessions: [Session] { state.withLock { $0.sessions } }
    var relay: [String: Set<String>] { state.withLock { $0.relay } }
    var nodeIDs: Set<String> { state.withLock { $0.nodes } }
    var contacts: [String: Int64] { state.withLock { $0.contacts } }
    var failures: [String] { state.withLock { $0.failures } }
    func acks(_ kind: CrashWriteKind) -> Int { state.withLock { $0.acks[kind] ?? 0 } }
    func attempts(_ kind: CrashWriteKind) -> Int { state.withLock { $0.attempts[kind] ?? 0 } }
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
