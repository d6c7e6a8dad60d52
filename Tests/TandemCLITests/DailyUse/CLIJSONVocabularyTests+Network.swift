import CanonicalJSON
import Foundation
import TestSupport
import Testing

extension CLIJSONVocabularyTests {
    @Test("account, sync, sharing and relay chat print what the page says")
    func serverCommands() async throws {
        let checks = try Checks()
        let server = try await ServerProcess.start(extraArguments: ["--no-rate-limit"])
        defer { server.stop() }
        let url = ["--server", server.baseURL]
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let aliceProfile = ["--profile", dir.path("alice")]
        let alice = aliceProfile + url
        let bob = ["--profile", dir.path("bob")] + url
        let password = "a long enough password\n"

        // Accounts: Alice registers, signs in again, renames herself.
        for (who, name) in [(alice, "alice"), (bob, "bob")] {
            try await checks.run("keys new", ["keys", "new"] + who.prefix(2))
            try await checks.run(
                "account register",
                ["account", "register", "--username", name, "--email", "\(name)@example.com", "--name", name]
                    + ["--password-stdin"] + who, stdin: password)
        }
        try await checks.run(
            "account login", ["account", "login", "--username", "alice", "--password-stdin"] + alice, stdin: password)
        try await checks.run("account update", ["account", "update", "--name", "Alice A"] + alice)
        try await checks.run("account whoami", ["account", "whoami"] + alice)
        try await checks.run("account sessions", ["account", "sessions"] + alice)

        // Sync and sharing: Alice shares a task with Bob, a stranger, who accepts it.
        let task = try await TandemProcess.run(["tasks", "add", "Water the plants"] + aliceProfile).stdoutText
            .trimmingCharacters(in: .newlines)
        try await checks.run("sync", ["sync"] + alice)
        try await checks.run("tasks sync", ["tasks", "sync"] + alice)
        try await checks.run("tasks preset sync", ["tasks", "preset", "sync"] + alice)
        try await checks.run("contacts sync", ["contacts", "sync"] + alice)
        try await checks.run("keys devices", ["keys", "devices"] + alice)
        try await checks.run("tasks share", ["tasks", "share", task, "--with", "bob"] + alice)
        try await checks.run("tasks invitations", ["tasks", "invitations"] + bob)
        try await checks.run("tasks accept", ["tasks", "accept", task] + bob)

        // Relay chat: Bob listens while Alice starts a chat and writes.
        let addresses = try await [alice, bob].asyncMap { who in
            try await checks.run("keys show", ["keys", "show"] + who.prefix(2))["address"]?.stringValue ?? ""
        }
        let listen = try await ChildProcess.launch(
            TandemProcess.binary, ["chat", "listen", "--json"] + bob)
        do {
            try await checks.run("chat handshake", ["chat", "handshake", "--to", addresses[1]] + alice)
            #expect(await listen.waitForOutput(containing: "\"handshake\"", within: 30))
            try await checks.run("chat send", ["chat", "send", "--to", addresses[1], "hello Bob"] + alice)
            #expect(await listen.waitForOutput(containing: "hello Bob", within: 30))
            checks.check(stream: "chat listen", listen.standardOutput)
        } catch {
            await listen.kill()
            // Bob has read Alice's payloads: his routing row carries the evidence of her root.
            let routing = try await checks.run(
                "kasia routing show", ["kasia", "routing", "show", "--profile", dir.path("bob")])
            #expect(
                routing.arrayValue?.contains { $0["rootEvidence"]?.objectValue != nil } == true, "no evidence checked")
            throw error
        }
        await listen.kill()
        try await checks.run("chat history", ["chat", "history", "--with", addresses[1]] + alice)
        try await checks.run("chat conversations", ["chat", "conversations"] + alice)
        // Bob's wallet on two new devices: one syncs, one restores, and both find the chat.
        for (copy, command) in [("bob2", "chat sync"), ("bob3", "chat restore")] {
            try FileManager.default.createDirectory(atPath: dir.path(copy), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: dir.path("bob/wallet.seed"), toPath: dir.path("\(copy)/wallet.seed"))
            try await checks.run(
                command, command.split(separator: " ").map(String.init) + ["--profile", dir.path(copy)] + url)
        }
        try await checks.run("chat delete", ["chat", "delete", "--with", addresses[0], "--profile", dir.path("bob3")])
        // Issue 48 item 2: Bob's first device writes a backup and his second merges it.
        let backup = dir.path("bob-chat-backup.json")
        try await checks.run("chat export", ["chat", "export", "--out", backup, "--profile", dir.path("bob")])
        try await checks.run("chat import", ["chat", "import", backup, "--profile", dir.path("bob2")])

        #expect(
            checks.checked.subtracting(["keys new", "keys show", "chat send", "kasia routing show"]) == Self.server)
    }

    @Test("Kaspa node, wallet and paid chat print what the page says")
    func kaspaCommands() async throws {
        let checks = try Checks()
        let node = try await SimNodeProcess.start()
        let alice = try await KaspaWalletCLITests.profile()
        let bob = try await KaspaWalletCLITests.profile()
        try await node.fund(alice.address, sompi: 1_000_000_000)
        let profile = ["--profile", alice.dir]

        try await checks.run(
            "kaspa connect", ["kaspa", "connect", "--network", "testnet-10", "--node", node.url] + profile)
        try await checks.run("kaspa status", ["kaspa", "status"] + profile)
        try await checks.run("wallet balance", ["wallet", "balance"] + profile)
        try await checks.run("wallet limits", ["wallet", "limits"] + profile)
        try await checks.run("wallet addresses", ["wallet", "addresses"] + profile)
        let watch = try await ChildProcess.launch(TandemProcess.binary, ["wallet", "watch", "--json"] + profile)
        let printed = await watch.waitForOutput(containing: "\n", within: 30)
        await watch.kill()
        #expect(printed)
        checks.check(stream: "wallet watch", watch.standardOutput)

        try await checks.run("wallet send", ["wallet", "send", "--to", bob.address, "--amount", "1"] + profile)
        try await checks.run("chat send", ["chat", "send", "--to", bob.address, "hello over Kaspa"] + profile)
        try await checks.run(
            "chat pay", ["chat", "pay", "--to", bob.address, "--amount", "0.5", "--memo", "lunch"] + profile)
        try await checks.run("kaspa disconnect", ["kaspa", "disconnect"] + profile)

        #expect(checks.checked == Self.kaspa)
    }
}

extension Sequence {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
