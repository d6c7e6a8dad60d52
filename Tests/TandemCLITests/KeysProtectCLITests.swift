import Foundation
import TestSupport
import Testing

/// `tandem keys protect|unprotect` and a protected profile's commands (issue 44 item 3).
@Suite struct KeysProtectCLITests {
    /// A cheap scrypt for tests (the default asks 128 MiB and half a second per command).
    static let cheap = ["--keystore-log-n", "10"]

    struct Fixture {
        let dir: TemporaryDirectory
        var profile: String { dir.path("profile") }
        var passphraseFile: String { dir.path("passphrase") }
        var wrongFile: String { dir.path("wrong") }

        init() throws {
            dir = try TemporaryDirectory()
            try Data("correct horse battery\n".utf8).write(to: URL(fileURLWithPath: passphraseFile))
            try Data("incorrect\n".utf8).write(to: URL(fileURLWithPath: wrongFile))
        }

        func run(_ arguments: [String], environment: [String: String] = [:], stdin: String = "") async throws
            -> TandemProcess.Output
        {
            try await TandemProcess.run(
                arguments + ["--profile", profile], stdin: Data(stdin.utf8), environment: environment)
        }

        /// Every file of the profile, as bytes.
        func files() throws -> [String: Data] {
            var out: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: profile) {
                out[name] = try Data(contentsOf: URL(fileURLWithPath: profile + "/" + name))
            }
            return out
        }
    }

    /// A profile with every kind of secret: seed (with a BIP-39 passphrase), task identity key.
    static func populated(_ fixture: Fixture) async throws -> (words: String, address: String) {
        let created = try KeysSeedCLITests.json(try await fixture.run(["keys", "new", "--json"]))
        let added = try await fixture.run(["tasks", "add", "Water the plants"])
        #expect(added.status == 0, "\(added.stderrText)")
        return (try #require(created["mnemonic"] as? String), try #require(created["address"] as? String))
    }

    @Test func protectedCommandsNeedThePassphraseAndTheFilesHoldNoSecret() async throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let (words, address) = try await Self.populated(fixture)
        let identityHex = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: fixture.profile + "/identity.key")), as: UTF8.self
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)

        let protected = try await fixture.run(
            ["keys", "protect", "--json", "--passphrase-file", fixture.passphraseFile] + Self.cheap)
        #expect(protected.status == 0, "\(protected.stderrText)")
        #expect(protected.stdoutText == "{\"protected\":true,\"secrets\":[\"identity.key\",\"wallet.seed\"]}\n")

        // No file holds the words, the identity key or the passphrase.
        for (name, data) in try fixture.files() {
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains(words.split(separator: " ").prefix(3).joined(separator: " ")), "\(name)")
            #expect(!text.contains(identityHex), "\(name)")
            #expect(!text.contains("correct horse"), "\(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.profile + "/wallet.seed"))

        // Without a passphrase: one line naming the three ways to give one.
        for command in [
            ["keys", "show"], ["tasks", "add", "x"], ["keys", "export", "--mnemonic"], ["chat", "conversations"],
            ["contacts", "list"], ["account", "whoami"],
        ] {
            let refused = try await fixture.run(command)
            #expect(refused.status == 1, "\(command)")
            #expect(refused.stderrLines.count == 1, "\(command): \(refused.stderrText)")
            #expect(refused.stderrText.contains("--passphrase-file"), "\(command): \(refused.stderrText)")
            #expect(refused.stderrText.contains("TANDEM_PASSPHRASE_FILE"), "\(command)")
        }
        // A wrong one: one line.
        let wrong = try await fixture.run(["keys", "show", "--passphrase-file", fixture.wrongFile])
        #expect(wrong.status == 1)
        #expect(wrong.stderrLines.count == 1)
        #expect(wrong.stderrText.contains("wrong passphrase"))
        #expect(!wrong.stderrText.contains("incorrect"))

        // With it, by option or by environment, everything works.
        let shown = try KeysSeedCLITests.json(
            try await fixture.run(["keys", "show", "--json", "--passphrase-file", fixture.passphraseFile]))
        #expect(shown["address"] as? String == address)
        #expect(shown["protected"] as? Bool == true)
        let environment = ["TANDEM_PASSPHRASE_FILE": fixture.passphraseFile]
        let listed = try await fixture.run(["tasks", "list", "--json"], environment: environment)
        #expect(listed.status == 0, "\(listed.stderrText)")
        #expect(listed.stdoutText.contains("Water the plants"))
        let added = try await fixture.run(["tasks", "add", "Feed the cat"], environment: environment)
        #expect(added.status == 0, "\(added.stderrText)")
        let exported = try await fixture.run(["keys", "export", "--mnemonic"], environment: environment)
        #expect(exported.stdoutText == words + "\n")

        // Unprotect gives the plain files back.
        let unprotected = try await fixture.run(["keys", "unprotect", "--passphrase-file", fixture.passphraseFile])
        #expect(unprotected.status == 0, "\(unprotected.stderrText)")
        #expect(FileManager.default.fileExists(atPath: fixture.profile + "/wallet.seed"))
        #expect(!FileManager.default.fileExists(atPath: fixture.profile + "/keystore.json"))
        let plain = try KeysSeedCLITests.json(try await fixture.run(["keys", "show", "--json"]))
        #expect(plain["address"] as? String == address)
        #expect(plain["protected"] as? Bool == false)
    }

    @Test func newAndImportCanStartProtected() async throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let created = try KeysSeedCLITests.json(
            try await fixture.run(["keys", "new", "--json", "--passphrase-file", fixture.passphraseFile] + Self.cheap))
        #expect(created["protected"] as? Bool == true)
        #expect(
            try fixture.files().keys.sorted().filter { !$0.hasPrefix(".") } == ["keystore.json", "keystore.json.lock"])
        let words = try #require(created["mnemonic"] as? String)
        let again = try await fixture.run(["keys", "protect", "--passphrase-file", fixture.passphraseFile])
        #expect(again.status == 1)
        #expect(again.stderrText.contains("encrypted already"))

        let other = try Fixture()
        defer { other.dir.remove() }
        let imported = try KeysSeedCLITests.json(
            try await other.run(
                ["keys", "import", "--mnemonic-stdin", "--json", "--passphrase-file", other.passphraseFile]
                    + Self.cheap,
                stdin: words))
        #expect(imported["address"] as? String == created["address"] as? String)
        #expect(!FileManager.default.fileExists(atPath: other.profile + "/wallet.seed"))
    }

    @Test(
        "kill -9 during keys protect leaves a usable profile",
        arguments: ["secrets-read", "keystore-written", "first-plain-file-removed"])
    func killedWhileProtecting(stage: String) async throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let (words, address) = try await Self.populated(fixture)
        let child = try await ChildProcess.launch(
            TandemProcess.binary,
            ["keys", "protect", "--profile", fixture.profile, "--passphrase-file", fixture.passphraseFile] + Self.cheap,
            environment: ["TANDEM_TEST_PAUSE_PROTECT": stage])
        #expect(await child.waitForOutput(containing: "paused at \(stage)", within: 60))
        await child.kill()

        // The profile opens: plain when the keystore never landed, protected (and the leftovers
        // gone) once it did.
        let keystoreLanded = stage != "secrets-read"
        let shown = try await fixture.run(["keys", "show", "--json", "--passphrase-file", fixture.passphraseFile])
        #expect(shown.status == 0, "\(shown.stderrText)")
        #expect(try KeysSeedCLITests.json(shown)["address"] as? String == address)
        #expect(try KeysSeedCLITests.json(shown)["protected"] as? Bool == keystoreLanded)
        let names = try fixture.files().keys
        #expect(names.contains("wallet.seed") == !keystoreLanded)
        #expect(names.contains("identity.key") == !keystoreLanded)
        let tasks = try await fixture.run(["tasks", "list", "--json", "--passphrase-file", fixture.passphraseFile])
        #expect(tasks.stdoutText.contains("Water the plants"), "\(tasks.stderrText)")
        let exported = try await fixture.run([
            "keys", "export", "--mnemonic", "--passphrase-file", fixture.passphraseFile,
        ])
        #expect(exported.stdoutText == words + "\n")
        if keystoreLanded {
            #expect(try await fixture.run(["keys", "show"]).status == 1)
        } else {
            let finished = try await fixture.run(
                ["keys", "protect", "--passphrase-file", fixture.passphraseFile] + Self.cheap)
            #expect(finished.status == 0, "\(finished.stderrText)")
        }
    }
}

/// Every command that needs a key works on a protected profile with its passphrase (issue 44
/// "Tests"): an account and its cookies, chat through the relay, task sync, and a wallet on a
/// node — and fails with one line without it.
@Suite(.serialized) struct ProtectedProfileCommandTests {
    @Test func aProtectedProfileSignsInChatsSyncsAndSpends() async throws {
        let server = try await ServerProcess.start(extraArguments: ["--no-rate-limit"])
        defer { server.stop() }
        let node = try await SimNodeProcess.start()
        let fixture = try KeysProtectCLITests.Fixture()
        defer { fixture.dir.remove() }
        let env = ["TANDEM_PASSPHRASE_FILE": fixture.passphraseFile]
        let s = ["--server", server.baseURL]
        func alice(_ arguments: [String], stdin: String = "") async throws -> TandemProcess.Output {
            let output = try await fixture.run(arguments, environment: env, stdin: stdin)
            #expect(output.status == 0, "\(arguments): \(output.stderrText)")
            return output
        }
        _ = try await alice(["keys", "new", "--passphrase-file", fixture.passphraseFile] + KeysProtectCLITests.cheap)
        let bob = fixture.dir.path("bob")
        #expect(try await TandemProcess.run(["keys", "new", "--profile", bob]).status == 0)
        let bobAddress = try await ChatCommandCLITests.address(of: bob)
        let aliceAddress = try #require(
            try KeysSeedCLITests.json(try await alice(["keys", "show", "--json"]))["address"] as? String)

        // An account: the session cookies go into the keystore, never into a plain file.
        _ = try await alice(
            [
                "account", "register", "--username", "alice", "--email", "alice@example.com", "--name", "Alice",
                "--password-stdin",
            ] + s, stdin: "a long password\n")
        #expect(!FileManager.default.fileExists(atPath: fixture.profile + "/session-cookies.json"))
        _ = try await alice(["account", "whoami", "--json"])

        // Chat through the relay both ways.
        _ = try await alice(["chat", "send", "--to", bobAddress, "hello from a keystore"] + s)
        let received = try await TandemProcess.run(["chat", "sync", "--profile", bob, "--json"] + s)
        #expect(received.stdoutText.contains("hello from a keystore"))
        #expect(
            try await TandemProcess.run(["chat", "send", "--profile", bob, "--to", aliceAddress, "hi"] + s).status == 0)
        let answer = try await alice(["chat", "sync", "--json"] + s)
        #expect(answer.stdoutText.contains("\"text\":\"hi\""))

        // Tasks: made and synced.
        _ = try await alice(["tasks", "add", "Water the plants"])
        let synced = try await alice(["sync"])
        #expect(synced.stdoutText.contains("pushed"), "\(synced.stdoutText)")

        // A wallet on a node: funded, then spending.
        _ = try await alice(["kaspa", "connect", "--network", "testnet-10", "--node", node.url])
        let testnet = try #require(
            try KeysSeedCLITests.json(try await alice(["keys", "show", "--network", "testnet", "--json"]))["address"]
                as? String)
        try await node.fund(testnet, sompi: 300_000_000)
        let balance = try KeysSeedCLITests.json(try await alice(["wallet", "balance", "--json"]))
        #expect(balance["balance"] as? Int == 300_000_000)
        let bobTestnet = try await KaspaWalletCLITests.profile()
        _ = try await alice(["wallet", "send", "--to", bobTestnet.address, "--amount", "1"])

        // Without the passphrase each of them stops at once with one line.
        for command in [["account", "whoami"], ["chat", "sync"] + s, ["sync"], ["wallet", "balance"]] {
            let refused = try await fixture.run(command)
            #expect(refused.status == 1, "\(command)")
            #expect(refused.stderrLines.count == 1, "\(command): \(refused.stderrText)")
            #expect(refused.stderrText.contains("TANDEM_PASSPHRASE_FILE"), "\(command): \(refused.stderrText)")
        }
        // And no file of the profile holds a cookie, a key or the words.
        let exported = try await alice(["keys", "export", "--mnemonic"])
        let firstWords = exported.stdoutText.split(separator: " ").prefix(3).joined(separator: " ")
        for (name, data) in try fixture.files() {
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains(firstWords), "\(name)")
            #expect(!text.contains("better-auth.session_token"), "\(name)")
        }
    }
}
