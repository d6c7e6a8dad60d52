import Foundation
import TestSupport
import Testing

/// People by name (issue 51 items 5 and 6): `--to`, `--with` and the contact edits take a
/// contact's name as well as an address; an ambiguous or unknown name is refused with one line
/// naming the matches; human lines show the name, else the one short form of the address, and
/// `conversations --json` carries unread counts and the mute state.
@Suite("Contacts by name (issue 51)")
struct ContactNamesCLITests {
    static func address(_ dir: String) async throws -> String {
        let shown = try await TandemProcess.run("keys", "show", "--json", "--profile", dir)
        return try #require(try KaspaWalletCLITests.json(shown)["address"] as? String)
    }

    static func shortForm(_ address: String) -> String {
        let body = String(address.split(separator: ":").last ?? "")
        return String(body.prefix(6)) + "…" + String(body.suffix(4))
    }

    @Test("names work where addresses do; ambiguity and unknown names are refused with one line")
    func namesResolve() async throws {
        let server = try await ServerProcess.start()
        let alice = try await KaspaWalletCLITests.profile().dir
        let bob = try await KaspaWalletCLITests.profile().dir
        let carol = try await KaspaWalletCLITests.profile().dir
        let bobAddress = try await Self.address(bob)
        let carolAddress = try await Self.address(carol)
        let relay = ["--server", server.baseURL]

        let added = try await TandemProcess.run("contacts", "add", bobAddress, "--alias", "Bob", "--profile", alice)
        #expect(added.status == 0, "\(added.stderrText)")
        let sent = try await TandemProcess.run(
            ["chat", "send", "--to", "bob", "hi by name", "--profile", alice] + relay)
        #expect(sent.status == 0, "\(sent.stderrText)")
        let history = try await TandemProcess.run("chat", "history", "--with", "BOB", "--json", "--profile", alice)
        #expect(history.stdoutText.contains("hi by name"), "\(history.stdoutText)")

        // Carol writes to Alice: her handshake makes an unnamed contact, shown by the short form.
        try #require(
            try await TandemProcess.run(
                ["chat", "send", "--to", try await Self.address(alice), "hello from carol", "--profile", carol] + relay
            ).status == 0)
        let synced = try await TandemProcess.run(["chat", "sync", "--profile", alice] + relay)
        #expect(synced.status == 0, "\(synced.stderrText)")
        #expect(synced.stdoutText.contains("\(Self.shortForm(carolAddress)): hello from carol"), "\(synced.stdoutText)")
        #expect(!synced.stdoutText.contains(carolAddress), "human lines show the short form")

        let conversations = try await TandemProcess.run("chat", "conversations", "--json", "--profile", alice)
        let rows = try #require(try JSONSerialization.jsonObject(with: conversations.stdout) as? [[String: Any]])
        let carolRow = try #require(rows.first { $0["address"] as? String == carolAddress })
        #expect(carolRow["unread"] as? Int ?? 0 >= 1)
        #expect(carolRow["notificationsMuted"] as? Bool == false)
        let lines = try await TandemProcess.run("chat", "conversations", "--profile", alice)
        #expect(lines.stdoutText.contains("Bob  "), "\(lines.stdoutText)")
        #expect(lines.stdoutText.contains(Self.shortForm(carolAddress)), "\(lines.stdoutText)")

        // Contact edits by name.
        #expect(try await TandemProcess.run("contacts", "rename", "bob", "Robert", "--profile", alice).status == 0)
        #expect(try await TandemProcess.run("contacts", "mute", "robert", "on", "--profile", alice).status == 0)
        let muted = try await TandemProcess.run("chat", "conversations", "--json", "--profile", alice)
        let bobRow = try #require(
            (try JSONSerialization.jsonObject(with: muted.stdout) as? [[String: Any]])?.first {
                $0["address"] as? String == bobAddress
            })
        #expect(bobRow["alias"] as? String == "Robert" && bobRow["notificationsMuted"] as? Bool == true)

        // Two contacts called Robert: nothing is guessed.
        #expect(
            try await TandemProcess.run("contacts", "rename", carolAddress, "robert", "--profile", alice).status == 0)
        for arguments in [
            ["chat", "send", "--to", "Robert", "x", "--profile", alice] + relay,
            ["contacts", "rm", "Robert", "--profile", alice],
            ["chat", "history", "--with", "robert", "--profile", alice],
        ] {
            let refused = try await TandemProcess.run(arguments)
            #expect(refused.status == 1, "\(arguments)")
            #expect(refused.stderrLines.count == 1, "\(arguments): \(refused.stderrText)")
            #expect(refused.stderrText.contains("names 2 contacts"), "\(refused.stderrText)")
            #expect(refused.stderrText.contains(bobAddress) && refused.stderrText.contains(carolAddress))
        }
        let unknown = try await TandemProcess.run(["chat", "send", "--to", "Nobody", "x", "--profile", alice] + relay)
        #expect(unknown.status == 1 && unknown.stderrLines.count == 1)
        #expect(unknown.stderrText.contains("neither a Kaspa address nor the name of a contact"))
        _ = await server.stopped()
    }
}
