import Foundation
import TestSupport
import Testing

/// Seed 000 items the client used to drop (issue 24 item 5): discrete conversations, the
/// composer warning reaching the sender, and the routing toggle / legacy pin.
@Suite(.serialized) struct ChatDiscreteCLITests {
    static func profiles() async throws -> (alice: String, bob: String, aliceAddress: String, bobAddress: String) {
        let scratch = try TandemProcess.temporaryDirectory()
        let alice = scratch.appendingPathComponent("alice").path
        let bob = scratch.appendingPathComponent("bob").path
        #expect(try await TandemProcess.run(["keys", "new", "--profile", alice]).status == 0)
        #expect(try await TandemProcess.run(["keys", "new", "--profile", bob]).status == 0)
        return await (alice, bob, try ChatCommandCLITests.address(of: alice), try ChatCommandCLITests.address(of: bob))
    }

    @Test func discreteConversationsNeedNoHandshakeAndTheWarningReachesTheSender() async throws {
        let server = try await ServerProcess.start(extraArguments: ["--no-rate-limit"])
        defer { server.stop() }
        let (alice, bob, aliceAddress, bobAddress) = try await Self.profiles()
        let s = ["--server", server.baseURL]

        // Given: Alice writes to Bob discreetly: no handshake, a warning that he may not see it.
        let first = try await TandemProcess.run(
            ["chat", "send", "--discrete", "--json", "--profile", alice, "--to", bobAddress, "psst"] + s)
        #expect(first.status == 0, "\(first.stderrText)")
        let sent = try #require(try JSONSerialization.jsonObject(with: first.stdout) as? [String: Any])
        #expect(sent["status"] as? String == "sent")
        #expect((sent["warning"] as? String)?.contains("no handshake announced ours") == true)
        // A plain send now is held back by the warning, with one line that says how to go on.
        let held = try await TandemProcess.run(["chat", "send", "--profile", alice, "--to", bobAddress, "again"] + s)
        #expect(held.status == 1)
        #expect(held.stderrLines.count == 1)
        #expect(held.stderrText.contains("may not receive this message"))
        #expect(held.stderrText.contains("--force"))
        let forced = try await TandemProcess.run(
            ["chat", "send", "--force", "--profile", alice, "--to", bobAddress, "again"] + s)
        #expect(forced.status == 0)
        #expect(forced.stdoutText.hasPrefix("warning: "))

        // When: Bob starts his side discreetly too, then syncs.
        #expect(
            try await TandemProcess.run(
                ["chat", "send", "--discrete", "--profile", bob, "--to", aliceAddress, "hey"] + s
            )
            .status == 0)
        let synced = try await TandemProcess.run(["chat", "sync", "--json", "--profile", bob] + s)

        // Then: he reads both of Alice's messages, and no handshake went either way.
        let texts = synced.stdoutText.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["text"] as? String
        }
        #expect(texts == ["psst", "again"])
        let history = try await TandemProcess.run(
            ["chat", "history", "--json", "--profile", bob, "--with", aliceAddress] + s)
        let page = try #require(try JSONSerialization.jsonObject(with: history.stdout) as? [String: Any])
        let kinds = (page["messages"] as? [[String: Any]])?.compactMap { $0["kind"] as? String }
        #expect(kinds?.contains("handshake") == false)
    }

    @Test func routingSetTogglesDeterministicPinsLegacyAndReturnsToAuto() async throws {
        let (alice, _, _, bobAddress) = try await Self.profiles()
        func set(_ preference: String) async throws -> (TandemProcess.Output, [String: Any]?) {
            let output = try await TandemProcess.run([
                "kasia", "routing", "set", bobAddress, preference, "--json", "--profile", alice,
            ])
            return (output, try? JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
        }
        let (pinned, legacy) = try await set("legacy")
        #expect(pinned.status == 0, "\(pinned.stderrText)")
        #expect(legacy?["preference"] as? String == "legacy")
        #expect(legacy?["mode"] as? String == "legacyOnly")
        #expect((legacy?["legacyOutgoing"] as? [String])?.count == 1)
        #expect(legacy?["sendAlias"] as? String == (legacy?["legacyOutgoing"] as? [String])?.first)

        let (_, toggled) = try await set("deterministic")
        #expect(toggled?["preference"] as? String == "deterministic")
        #expect(toggled?["peerSupportsDeterministic"] as? Bool == true)
        #expect(toggled?["sendAlias"] as? String == toggled?["theirAlias"] as? String)

        let (_, auto) = try await set("auto")
        #expect(auto?["preference"] as? String == "auto")
        #expect(auto?["peerSupportsDeterministic"] as? Bool == false)
        let shown = try await TandemProcess.run(["kasia", "routing", "show", "--json", "--profile", alice])
        let rows = try JSONSerialization.jsonObject(with: shown.stdout) as? [[String: Any]]
        #expect(rows?.first?["preference"] as? String == "auto")

        // Past stage a, no new legacy alias may be made: the pin is refused with one line.
        #expect(try await TandemProcess.run(["kasia", "routing", "stage", "b", "--profile", alice]).status == 0)
        let (refused, _) = try await set("legacy")
        #expect(refused.status == 1)
        #expect(refused.stderrLines.count == 1)
        #expect(refused.stderrText.contains("only stage a"))
        let (bad, _) = try await set("sometimes")
        #expect(bad.status == 1)
        #expect(bad.stderrLines.count == 1)
    }
}
