import Foundation
import TestSupport
import Testing

/// Issue 48 item 2 through the CLI: Anna chats with Bob over a `tandem serve` relay, exports her
/// chats (`tandem chat export`, in Tandem's and KaChat's formats) and imports them on a new device
/// of the same seed (`tandem chat import`), which then shows the same history, her own texts
/// included; a second import changes nothing, and a wrong seed or a truncated file exits 1 with
/// one line and changes nothing.
@Suite(.serialized) struct ChatBackupCLITests {
    typealias Travels = ChatHistoryTravelsCLITests

    static func json(_ arguments: [String]) async throws -> [String: Any] {
        let output = try await Travels.run(arguments + ["--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    @Test("export, then import on a new device: the same history, once; refusals change nothing")
    func exportAndImport() async throws {
        let server = try await ServerProcess.start(extraArguments: ["--no-rate-limit"])
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (laptop, bob) = (dir.path("laptop"), dir.path("bob"))
        let url = ["--server", server.baseURL]
        _ = try await Travels.run(["keys", "new", "--profile", laptop])
        _ = try await Travels.run(["keys", "new", "--profile", bob])
        let (anna, bobAddress) = (try await Travels.address(laptop), try await Travels.address(bob))
        _ = try await Travels.run(["chat", "handshake", "--to", bobAddress, "--profile", laptop] + url)
        _ = try await Travels.run(["chat", "sync", "--profile", bob] + url)
        _ = try await Travels.run(["chat", "send", "--to", bobAddress, "one from Anna", "--profile", laptop] + url)
        _ = try await Travels.run(["chat", "send", "--to", anna, "two from Bob", "--profile", bob] + url)
        _ = try await Travels.run(["chat", "send", "--to", bobAddress, "three from Anna", "--profile", laptop] + url)
        _ = try await Travels.run(["chat", "sync", "--profile", laptop] + url)
        let original = try await Travels.history(laptop, with: bobAddress)
        #expect(original.map { $0[2] } == ["one from Anna", "two from Bob", "three from Anna"])

        for format in ["tandem", "kachat"] {
            let file = dir.path("anna.\(format).json")
            let written = try await Self.json(
                ["chat", "export", "--out", file, "--format", format, "--profile", laptop])
            let exported = try #require(written["messages"] as? Int)
            #expect(written["format"] as? String == format && written["conversations"] as? Int == 1)
            #expect(exported > original.count, "the texts and the handshake: \(written)")
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600, "the backup is the owner's alone")

            // A new device of Anna's: the same seed, nothing else.
            let phone = dir.path("phone-\(format)")
            try FileManager.default.createDirectory(atPath: phone, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: dir.path("laptop/wallet.seed"), toPath: "\(phone)/wallet.seed")
            let first = try await Self.json(["chat", "import", file, "--profile", phone])
            #expect(first["messagesAdded"] as? Int == exported && first["messagesSkipped"] as? Int == 0, "\(first)")
            #expect(first["contactsAdded"] as? Int == 1)
            #expect(try await Travels.history(phone, with: bobAddress) == original)
            let second = try await Self.json(["chat", "import", file, "--profile", phone])
            #expect(second["messagesAdded"] as? Int == 0 && second["messagesUpdated"] as? Int == 0, "\(second)")
            #expect(try await Travels.history(phone, with: bobAddress) == original)

            // Bob's seed does not open Anna's backup; half a file is no backup. Bob's chat stays.
            let bobBefore = try await Travels.history(bob, with: anna)
            let truncated = dir.path("half.json")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
            for (path, says) in [(file, "another wallet"), (truncated, "not a chat backup")] {
                let refused = try await TandemProcess.run("chat", "import", path, "--profile", bob)
                #expect(refused.status == 1)
                let lines = refused.stderrText.split(separator: "\n")
                #expect(lines.count == 1 && lines.first?.contains(says) == true, "\(refused.stderrText)")
            }
            #expect(try await Travels.history(bob, with: anna) == bobBefore)
        }
        let missing = try await TandemProcess.run("chat", "import", dir.path("nowhere.json"), "--profile", laptop)
        #expect(missing.status == 1 && missing.stderrText.contains("no such file"), "\(missing.stderrText)")
    }
}
