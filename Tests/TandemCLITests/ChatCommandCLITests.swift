import Foundation
import TestSupport
import Testing

/// `tandem chat …` against a real `tandem serve`: the commands, their JSON and their errors.
@Suite(.serialized) struct ChatCommandCLITests {
    static func address(of profile: String) async throws -> String {
        let output = try await TandemProcess.run(["keys", "show", "--profile", profile, "--json"])
        let object = try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any]
        return try #require(object?["address"] as? String)
    }

    @Test func twoProfilesHandshakeSendSyncAndReadHistoryAndConversations() async throws {
        // Given a relay and two profiles with wallet keys
        let server = try await ServerProcess.start(extraArguments: ["--no-rate-limit"])
        defer { server.stop() }
        let scratch = try TandemProcess.temporaryDirectory()
        let alice = scratch.appendingPathComponent("alice").path
        let bob = scratch.appendingPathComponent("bob").path
        #expect(try await TandemProcess.run(["keys", "new", "--profile", alice]).status == 0)
        #expect(try await TandemProcess.run(["keys", "new", "--profile", bob]).status == 0)
        let aliceAddress = try await Self.address(of: alice)
        let bobAddress = try await Self.address(of: bob)
        let s = ["--server", server.baseURL]

        // When Alice greets Bob and sends from an argument and from stdin, and Bob answers
        #expect(
            try await TandemProcess.run(["chat", "handshake", "--profile", alice, "--to", bobAddress] + s).status == 0)
        #expect(
            try await TandemProcess.run(["chat", "send", "--profile", alice, "--to", bobAddress, "hi Bob"] + s).status
                == 0)
        let piped = try await TandemProcess.run(
            ["chat", "send", "--profile", alice, "--to", bobAddress, "--json"] + s, stdin: Data("from stdin\n".utf8))
        #expect(piped.status == 0)
        #expect(piped.stdoutText.contains(#""status":"sent""#))
        let bobSync = try await TandemProcess.run(["chat", "sync", "--profile", bob, "--json"] + s)
        #expect(bobSync.stdoutText.split(separator: "\n").count == 3)
        #expect(
            try await TandemProcess.run(["chat", "send", "--profile", bob, "--to", aliceAddress, "hi Alice"] + s).status
                == 0)
        let aliceSync = try await TandemProcess.run(["chat", "sync", "--profile", alice, "--json"] + s)

        // Then Alice's sync, history and conversation list show the exchange
        let arrived = try JSONSerialization.jsonObject(with: Data(aliceSync.stdoutText.utf8)) as? [String: Any]
        #expect(arrived?["text"] as? String == "hi Alice")
        #expect(arrived?["from"] as? String == bobAddress)
        let history = try await TandemProcess.run(
            ["chat", "history", "--profile", alice, "--with", bobAddress, "--json"] + s)
        let page = try #require(try JSONSerialization.jsonObject(with: history.stdout) as? [String: Any])
        let rows = try #require(page["messages"] as? [[String: Any]])
        // The handshake shows as KaChat's placeholder row (kasia-protocol §8), kind "handshake".
        #expect(rows.first?["kind"] as? String == "handshake")
        #expect(rows.first?["text"] as? String == "[Handshake sent]")
        let messages = rows.filter { $0["kind"] as? String == "text" }
        #expect(messages.compactMap { $0["text"] as? String } == ["hi Bob", "from stdin", "hi Alice"])
        #expect(messages.compactMap { $0["direction"] as? String } == ["outgoing", "outgoing", "incoming"])
        #expect(page["hasMore"] as? Bool == false)
        let older = try await TandemProcess.run(
            [
                "chat", "history", "--profile", alice, "--with", bobAddress, "--limit", "1", "--before",
                try #require(messages.last?["cursor"] as? String), "--json",
            ] + s)
        let olderPage = try JSONSerialization.jsonObject(with: older.stdout) as? [String: Any]
        #expect((olderPage?["messages"] as? [[String: Any]])?.compactMap { $0["text"] as? String } == ["from stdin"])
        #expect(olderPage?["hasMore"] as? Bool == true)
        // In words, a page that is not the whole history says how to read on (issue 51 item 9).
        let human = try await TandemProcess.run(
            ["chat", "history", "--profile", alice, "--with", bobAddress, "--limit", "2"] + s)
        #expect(human.stdoutText.split(separator: "\n").count == 2)
        #expect(
            human.stderrText.hasPrefix("tandem: older messages: tandem chat history --with \(bobAddress) --before "))
        let whole = try await TandemProcess.run(["chat", "history", "--profile", alice, "--with", bobAddress] + s)
        #expect(whole.stderrText.isEmpty, "the whole history needs no hint")
        let conversations = try await TandemProcess.run(["chat", "conversations", "--profile", alice, "--json"] + s)
        let list = try JSONSerialization.jsonObject(with: conversations.stdout) as? [[String: Any]]
        #expect(list?.compactMap { $0["address"] as? String } == [bobAddress])
        #expect((list?.first?["lastMessage"] as? [String: Any])?["text"] as? String == "hi Alice")
    }

    @Test func badInputsAreOneLineErrors() async throws {
        let scratch = try TandemProcess.temporaryDirectory()
        let profile = scratch.appendingPathComponent("p").path
        let noKey = try await TandemProcess.run([
            "chat", "sync", "--profile", profile, "--server", "http://127.0.0.1:9",
        ])
        #expect(noKey.status == 1)
        #expect(noKey.stderrLines.count == 1)
        #expect(noKey.stderrText.contains("no profile"), "chat never makes a profile (issue 51 item 2)")
        #expect(!FileManager.default.fileExists(atPath: profile))
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        let empty = try await TandemProcess.run([
            "chat", "sync", "--profile", profile, "--server", "http://127.0.0.1:9",
        ])
        #expect(empty.status == 1)
        #expect(empty.stderrLines.count == 1)
        #expect(empty.stderrText.contains("no wallet key"))
        let badAddress = try await TandemProcess.run(["chat", "send", "--profile", profile, "--to", "kaspa:nope", "x"])
        #expect(badAddress.status == 1)
        #expect(badAddress.stderrText.hasPrefix("tandem: --to kaspa:nope"))
        let badServer = try await TandemProcess.run(["chat", "sync", "--profile", profile, "--server", "ftp://x"])
        #expect(badServer.stderrLines.count == 1)
        #expect(badServer.stderrText.contains("--server ftp://x"))
    }
}
