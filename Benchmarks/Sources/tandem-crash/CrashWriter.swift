import BenchSupport
import CanonicalJSON
import Foundation
import KasiaProtocol
import RedoProtocol
import TandemAPI
import TandemBasics

/// One writer task of a burst: the same kind of write again and again until the harness
/// says stop (just before the SIGKILL), recording each acknowledged write in the ledger.
///
/// A request that gets no complete answer is unacknowledged and ends the writer: the server
/// is dying. An answer the harness did not expect (any 5xx, a refusal of a well-formed write)
/// is a failure of the run, and so is a dropped connection before the stop.
struct CrashWriter: Sendable {
    let kind: CrashWriteKind
    let index: Int
    let cycle: Int
    let client: CrashClient
    let fixture: CrashFixture
    let ledger: CrashLedger
    let stop: StopFlag

    static let nodesPerPush = 20
    static let recordsPerPut = 4

    func run() async {
        var contactVersions: [String: Int64] = [:]
        if kind == .contact {
            for _ in 0..<Self.recordsPerPut { contactVersions[Self.randomHex(bytes: 32)] = 0 }
        }
        var sequence: UInt64 = 0
        let items = kind == .node ? Self.nodesPerPush : kind == .contact ? Self.recordsPerPut : 1
        while !stop.isSet {
            ledger.attempt(kind, items: items)
            do {
                switch kind {
                case .signUp:
                    let name = "cr\(fixture.tag)_\(cycle)_\(index)_\(sequence)"
                    ledger.session(try await client.signUp(username: name, password: CrashFixture.password), kind: kind)
                case .signIn:
                    ledger.session(
                        try await client.signIn(username: fixture.username, password: CrashFixture.password), kind: kind
                    )
                case .relay: try await submit(sequence: sequence)
                case .node: try await pushNodes()
                case .contact: try await putRecords(versions: &contactVersions)
                }
            } catch CrashClientError.transport(let error) {
                if !stop.isSet {
                    ledger.fail("cycle \(cycle): \(kind.rawValue) lost its connection before the kill: \(error)")
                }
                return
            } catch {
                ledger.fail("cycle \(cycle): \(kind.rawValue): \(error)")
                return
            }
            sequence += 1
        }
    }

    /// A distinct signed contextual message (its nonce is unique in the run) under this
    /// cycle's alias, so verification reads one alias per cycle.
    private func submit(sequence: UInt64) async throws {
        let alias = try RelayBenchFixtures.alias(cycle)
        let nonce = UInt64(cycle) << 40 | UInt64(index) << 32 | sequence
        let body = try JSONEncoder().encode(
            try RelayBenchFixtures.submission(key: fixture.relayKey, alias: alias, nonce: nonce))
        let response = try await client.send(.POST, APIPath.kasiaTransactions, body: Array(body))
        let receipt = try client.decode(RelayReceipt.self, response, APIPath.kasiaTransactions)
        ledger.relay(txID: receipt.txID, aliasHex: alias.indexerQueryParameter)
    }

    /// New tasks (a CREATE and UPDATEs each) signed by the registered device key.
    private func pushNodes() async throws {
        let nodes = try SignedNodes.tasks(count: Self.nodesPerPush, identity: fixture.identity)
        var body = Array(#"{"nodes":["#.utf8)
        for (offset, node) in nodes.enumerated() {
            if offset > 0 { body.append(UInt8(ascii: ",")) }
            body += try CanonicalJSON.canonicalBytes(of: .object(node.json))
        }
        body += Array("]}".utf8)
        let response = try await client.send(.POST, APIPath.redoNodes, cookie: fixture.owner.cookie, body: body)
        let results = try client.decode(RedoNodePushResponse.self, response, APIPath.redoNodes).results
        if let rejected = results.first(where: { $0.status == .rejected }) {
            throw CrashClientError.malformed(
                "a well-formed node was rejected: \(rejected.code ?? "") \(rejected.message ?? "")")
        }
        ledger.nodes(results.map(\.id))
    }

    /// Every record of this writer, each from the version last acknowledged (compare-and-set).
    private func putRecords(versions: inout [String: Int64]) async throws {
        let writes = versions.sorted { $0.key < $1.key }.map { id, version in
            ContactRecordWrite(
                id: id, box: Data(Self.randomHex(bytes: 24).utf8).base64EncodedString(), baseVersion: version)
        }
        let body = try JSONEncoder().encode(ContactRecordsPut(records: writes))
        let response = try await client.send(
            .PUT, APIPath.contactRecords, cookie: fixture.owner.cookie, body: Array(body))
        for written in try client.decode(ContactRecordsPutResponse.self, response, APIPath.contactRecords).records {
            versions[written.id] = written.version
            ledger.contact(id: written.id, version: written.version)
        }
    }

    static func randomHex(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.encode((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
