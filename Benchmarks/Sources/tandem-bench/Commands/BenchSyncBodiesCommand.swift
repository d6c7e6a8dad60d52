import ArgumentParser
import BenchSupport
import CanonicalJSON
import Foundation
import RedoProtocol
import TandemAPI

/// `tandem-bench sync-bodies` (hidden): signed Redo pushes for load generators that cannot
/// sign (scripts/load feeds them to wrk, issue 14 item 3). The first line is the device-key
/// registration for `POST /api/me/keys` (a fresh Ed25519 key bound to `--user-id`); each
/// following line is a `POST /api/redo/nodes` body of a new task: one CREATE and UPDATEs
/// chained on it, all signed by that key, so every push stores new nodes.
struct BenchSyncBodiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-bodies",
        abstract: "Print a device-key registration, then signed Redo push bodies, one JSON a line (for scripts/load).",
        shouldDisplay: false
    )

    @Option(name: .long, help: "The account id the key is bound to (the sign-up answer's user.id).") var userId: String
    @Option(name: .long, help: "How many push bodies.") var count = 10_000
    @Option(name: .long, help: "Nodes per push (one CREATE, then UPDATEs).") var nodesPerPush = 5

    func validate() throws {
        guard count > 0 else { throw ValidationError("--count must be positive") }
        guard (1...500).contains(nodesPerPush) else { throw ValidationError("--nodes-per-push must be 1–500") }
    }

    func run() throws {
        let key = SigningKey()
        let registration = DeviceKeyRegistration(
            publicKey: key.publicKey.description,
            signature: key.signature(
                for: DeviceKeyBinding.message(userID: userId, publicKey: key.publicKey.description)
            )
            .description)
        var out = Array(try JSONEncoder().encode(registration))
        out.append(UInt8(ascii: "\n"))
        guard let device = DeviceID("load-device") else { throw CLIError("sync-bodies: bad device id") }
        let author = Author(
            publicKey: key.publicKey, deviceID: device, name: "Load", email: "load@example.org", deviceName: "Load")
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        guard let wall = WallTime(millisecondsSinceEpoch: now) else { throw CLIError("sync-bodies: bad clock") }
        var random = SystemRandomNumberGenerator()
        for index in 0..<count {
            let taskID = TaskID(randomBytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
            var parent = try NodeDraft(
                taskID: taskID, action: .create, payload: try JSONObject([("title", .string("load task \(index)"))]),
                parents: [], lamport: 1, wall: wall, author: author
            ).node(signedWith: key)
            var nodes = [parent]
            while nodes.count < nodesPerPush {
                parent = try NodeDraft(
                    taskID: taskID, action: .update,
                    payload: try JSONObject([("description", .string("edit \(nodes.count)"))]),
                    parents: [parent.id], lamport: parent.lamport + 1, wall: wall, author: author
                ).node(signedWith: key)
                nodes.append(parent)
            }
            out += try CanonicalJSON.canonicalBytes(
                of: .object(try JSONObject([("nodes", .array(nodes.map { .object($0.json) }))])))
            out.append(UInt8(ascii: "\n"))
            if out.count > 1 << 20 {
                FileHandle.standardOutput.write(Data(out))
                out.removeAll(keepingCapacity: true)
            }
        }
        FileHandle.standardOutput.write(Data(out))
    }
}
