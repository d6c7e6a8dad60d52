import CanonicalJSON
import Foundation
import RedoProtocol
import TandemAPI
import Testing

/// `tandem-bench sync-bodies`, the signed Redo pushes `scripts/load` feeds to wrk (issue 14
/// item 3): a key registration the server accepts, then push bodies whose every node passes the
/// server's own check with a required signature, by that key, one new task per line.
@Suite struct SyncBodiesBenchTests {
    @Test func printsAKeyRegistrationThenSignedPushesOfNewTasks() async throws {
        let output = try await Harness.run(
            "tandem-bench",
            [
                "sync-bodies", "--user-id", "user-42", "--count", "3", "--nodes-per-push", "4",
            ])
        #expect(output.status == 0, "\(output.stderrText)")
        let lines = output.stdoutText.split(separator: "\n").map(String.init)
        try #require(lines.count == 4)

        let registration = try JSONDecoder().decode(DeviceKeyRegistration.self, from: Data(lines[0].utf8))
        let publicKey = try #require(PublicKeyHex(registration.publicKey))
        let signature = try #require(SignatureHex(registration.signature))
        let binding = DeviceKeyBinding.message(userID: "user-42", publicKey: registration.publicKey)
        #expect(SigningKey.isValidSignature(signature, for: binding, publicKey: publicKey))

        let validator = NodeValidator(signaturePolicy: .required)
        var tasks: Set<String> = []
        for line in lines.dropFirst() {
            let body = try CanonicalJSON.parse(Array(line.utf8))
            let elements = try #require(body["nodes"]?.arrayValue)
            let nodes = try elements.map { try validator.validate($0) }
            #expect(nodes.count == 4)
            #expect(nodes.map(\.action) == [.create, .update, .update, .update])
            #expect(nodes.allSatisfy { $0.author.publicKey == publicKey })
            #expect(Set(nodes.map(\.taskID.description)).count == 1)
            #expect(zip(nodes.dropFirst(), nodes).allSatisfy { child, parent in child.parents == [parent.id] })
            tasks.insert(nodes[0].taskID.description)
        }
        #expect(tasks.count == 3)
    }
}
