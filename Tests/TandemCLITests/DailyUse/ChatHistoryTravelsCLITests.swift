import Foundation
import TestSupport
import Testing

/// Issue 48 item 1 through the CLI: two devices of one person (one seed, one account) chat with a
/// third profile, over a `tandem serve` relay and over a `tandem-simnode` Kaspa network; after
/// `tandem sync` each device shows the same history, the person's own texts included, once each.
@Suite(.serialized) struct ChatHistoryTravelsCLITests {
    let password = "a long enough password\n"

    /// `(direction, transactionId, text)` of every message with `peer`, oldest first.
    static func history(_ profile: String, with peer: String) async throws -> [[String]] {
        let output = try await TandemProcess.run(
            "chat", "history", "--json", "--limit", "1000", "--profile", profile, "--with", peer)
        try #require(output.status == 0, "\(output.stderrText)")
        let page = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
        let messages = try #require(page["messages"] as? [[String: Any]])
        return messages.filter { $0["kind"] as? String != "handshake" }.map { message in
            [message["direction"], message["transactionId"], message["text"]].map { $0 as? String ?? "-" }
        }
    }

    static func run(_ arguments: [String], stdin: String? = nil) async throws -> String {
        let output = try await TandemProcess.run(arguments, stdin: Data((stdin ?? "").utf8))
        try #require(output.status == 0, "tandem \(arguments.joined(separator: " ")): \(output.stderrText)")
        return output.stdoutText
    }

    static func address(_ profile: String, network: [String] = []) async throws -> String {
        let shown = try await run(["keys", "show", "--json", "--profile", profile] + network)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
        return try #require(object["address"] as? String)
    }

    /// Signs the laptop up and the phone in to one account.
    func signIn(laptop: String, phone: String, server: String) async throws {
        _ = try await Self.run(
            ["account", "register", "--username", "anna", "--email", "anna@example.com", "--name", "Anna"]
                + ["--password-stdin", "--profile", laptop, "--server", server], stdin: password)
        _ = try await Self.run(
            ["account", "login", "--username", "anna", "--password-stdin", "--profile", phone, "--server", server],
            stdin: password)
    }

    /// Syncs laptop, phone, laptop; then both show the same history, every text in it.
    func expectSameHistory(laptop: String, phone: String, bob: String, texts: [String]) async throws {
        // Before: the phone read its person's messages from the network, without their texts (null).
        let before = try await Self.history(phone, with: bob)
        #expect(before.filter { $0[0] == "outgoing" }.map { $0[2] } == ["-", "-"], "\(before)")
        for profile in [laptop, phone, laptop] {
            let report = try await Self.run(["sync", "--profile", profile])
            #expect(report.contains("chat: pulled"), "\(report)")
        }
        let onLaptop = try await Self.history(laptop, with: bob)
        let onPhone = try await Self.history(phone, with: bob)
        #expect(onLaptop == onPhone)
        #expect(onPhone.map { $0[2] } == texts)
        #expect(Set(onPhone.map { $0[1] }).count == onPhone.count, "one row per transaction")
    }

    @Test("over the relay, both devices show the whole history after tandem sync")
    func overTheRelay() async throws {
        let server = try await ServerProcess.start(extraArguments: ["--no-rate-limit"])
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (laptop, phone, bob) = (dir.path("laptop"), dir.path("phone"), dir.path("bob"))
        let url = ["--server", server.baseURL]
        _ = try await Self.run(["keys", "new", "--profile", laptop])
        _ = try await Self.run(["keys", "new", "--profile", bob])
        try FileManager.default.createDirectory(atPath: phone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: dir.path("laptop/wallet.seed"), toPath: dir.path("phone/wallet.seed"))
        try await signIn(laptop: laptop, phone: phone, server: server.baseURL)
        let (anna, bobAddress) = (try await Self.address(laptop), try await Self.address(bob))

        _ = try await Self.run(["chat", "handshake", "--to", bobAddress, "--profile", laptop] + url)
        _ = try await Self.run(["chat", "sync", "--profile", bob] + url)
        _ = try await Self.run(["chat", "send", "--to", bobAddress, "one from the laptop", "--profile", laptop] + url)
        _ = try await Self.run(["chat", "send", "--to", anna, "two from Bob", "--profile", bob] + url)
        _ = try await Self.run(
            ["chat", "send", "--to", bobAddress, "three from the laptop", "--profile", laptop] + url)
        for profile in [laptop, phone] { _ = try await Self.run(["chat", "sync", "--profile", profile] + url) }

        try await expectSameHistory(
            laptop: laptop, phone: phone, bob: bobAddress,
            texts: ["one from the laptop", "two from Bob", "three from the laptop"])
    }

    @Test("over a Kaspa node, both devices show the whole history after tandem sync")
    func overKaspa() async throws {
        let server = try await ServerProcess.start(extraArguments: ["--no-rate-limit"])
        defer { server.stop() }
        let node = try await SimNodeProcess.start()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (laptop, phone, bob) = (dir.path("laptop"), dir.path("phone"), dir.path("bob"))
        _ = try await Self.run(["keys", "new", "--profile", laptop])
        _ = try await Self.run(["keys", "new", "--profile", bob])
        try FileManager.default.createDirectory(atPath: phone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: dir.path("laptop/wallet.seed"), toPath: dir.path("phone/wallet.seed"))
        try await signIn(laptop: laptop, phone: phone, server: server.baseURL)
        let testnet = ["--network", "testnet"]
        let (anna, bobAddress) = (
            try await Self.address(laptop, network: testnet), try await Self.address(bob, network: testnet)
        )
        for profile in [laptop, phone, bob] {
            _ = try await Self.run([
                "kaspa", "connect", "--network", "testnet-10", "--node", node.url, "--profile", profile,
            ])
        }
        try await node.fund(anna, sompi: 1_000_000_000)
        try await node.fund(bobAddress, sompi: 1_000_000_000)

        _ = try await Self.run(["chat", "send", "--to", bobAddress, "hello over Kaspa", "--profile", laptop])
        try await node.mine()
        _ = try await Self.run(["chat", "sync", "--profile", bob])
        _ = try await Self.run(["chat", "send", "--to", anna, "hello Anna", "--profile", bob])
        try await node.mine()
        _ = try await Self.run(["chat", "send", "--to", bobAddress, "paying soon", "--profile", laptop])
        try await node.mine()
        for profile in [laptop, phone] { _ = try await Self.run(["chat", "sync", "--profile", profile]) }

        try await expectSameHistory(
            laptop: laptop, phone: phone, bob: bobAddress, texts: ["hello over Kaspa", "hello Anna", "paying soon"])
    }
}
