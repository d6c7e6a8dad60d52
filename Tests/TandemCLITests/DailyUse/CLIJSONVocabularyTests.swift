import CanonicalJSON
import Foundation
import TestSupport
import Testing

/// One JSON vocabulary (issue 51 item 6): docs/cli-json.md is the contract for every `--json`
/// output. The rules hold over the page itself; each command in it is run (locally, against a
/// real server, over a simulated Kaspa node) and its output checked against its block.
@Suite("One JSON vocabulary (issue 51)")
struct CLIJSONVocabularyTests {
    /// Runs `tandem … --json` and checks its stdout against the command's block.
    final class Checks {
        let contract: CLIJSONContract
        private(set) var checked: Set<String> = []

        init() throws { contract = try CLIJSONContract.load() }

        /// `tandem arguments… --json`, checked as `command` (the words of its block).
        @discardableResult
        func run(
            _ command: String, _ arguments: [String], stdin: String = "", environment: [String: String] = [:]
        ) async throws -> JSONValue {
            let output = try await TandemProcess.run(
                arguments + ["--json"], stdin: Data(stdin.utf8), environment: environment)
            #expect(output.status == 0, "\(arguments.joined(separator: " ")): \(output.stderrText)")
            check(command, output.stdout)
            return (try? CanonicalJSON.parse(output.stdout)) ?? .null
        }

        /// The complete lines a stream printed so far, checked as `command`.
        func check(stream command: String, _ output: Data) {
            let text = String(decoding: output, as: UTF8.self)
            let complete = text.hasSuffix("\n") ? text : String(text[..<(text.lastIndex(of: "\n") ?? text.startIndex)])
            check(command, Data(complete.utf8))
        }

        func check(_ command: String, _ stdout: Data) {
            checked.insert(command)
            for problem in contract.problems(command: command, output: stdout) { Issue.record("\(problem)") }
        }
    }

    /// The commands each scenario runs; together, every command of the page.
    static let local: Set<String> = [
        "tasks list", "tasks add", "tasks edit", "tasks done", "tasks snooze", "tasks archive", "tasks unarchive",
        "tasks delete", "tasks today", "tasks stats", "tasks preset save", "tasks preset list", "keys new",
        "keys show", "keys export", "keys protect", "keys addresses", "profile list", "profile show", "contacts add",
        "contacts list", "contacts migrate", "contacts purge", "kasia alias", "kasia routing show",
        "kasia routing set", "kasia routing migrate", "kasia routing watch", "kasia routing stage", "kaspa decode",
        "kaspa script", "kaspa tx mass", "admin import-betterauth",
    ]
    static let server: Set<String> = [
        "account register", "account login", "account update", "account whoami", "account sessions",
        "keys devices", "sync", "tasks sync", "tasks preset sync", "contacts sync", "tasks share",
        "tasks invitations", "tasks accept", "chat handshake", "chat history", "chat conversations", "chat sync",
        "chat listen", "chat restore", "chat delete", "chat export", "chat import",
    ]
    static let kaspa: Set<String> = [
        "kaspa connect", "kaspa status", "kaspa disconnect", "wallet balance", "wallet watch", "wallet send",
        "wallet addresses", "wallet limits", "chat send", "chat pay",
    ]

    @Test("the page names one concept one way: times end in At, old names only beside their new ones")
    func thePageKeepsTheRules() throws {
        let contract = try CLIJSONContract.load()
        let retired: Set<String> = [
            "txID", "txId", "txid", "transactionID", "thisDevice", "isCurrent", "privacy", "due", "deadline", "time",
            "created", "updated", "muted",
        ]
        var bodies: [(String, [CLIJSONContract.Member])] = contract.shapes.map { ("shape \($0.key)", $0.value) }
        bodies += contract.commands.map { ("command \($0.key)", contract.members(of: $0.value)) }
        for (name, members) in bodies {
            let names = Set(members.map(\.name))
            for member in members {
                #expect(
                    member.name.range(of: "^[a-z][A-Za-z0-9]*$", options: .regularExpression) != nil,
                    "\(name).\(member.name): camelCase")
                if let replacement = member.replacement {
                    #expect(names.contains(replacement), "\(name).\(member.name): its new name is not beside it")
                    continue
                }
                #expect(!retired.contains(member.name), "\(name).\(member.name): a retired name")
                let isTime = member.kind == .time || member.kind == .nullable(.time)
                if isTime && !member.fixed {
                    #expect(member.name.hasSuffix("At"), "\(name).\(member.name): a time whose name is not …At")
                }
                if member.name.hasSuffix("At") {
                    #expect(isTime, "\(name).\(member.name): an …At that is not an ISO-8601 time")
                }
            }
        }
    }

    @Test("every command block of the page is run by one of the scenarios")
    func everyCommandIsExercised() throws {
        let documented = Set(try CLIJSONContract.load().commands.keys)
        #expect(documented == Self.local.union(Self.server).union(Self.kaspa))
        #expect(Self.local.intersection(Self.server).isEmpty && Self.server.intersection(Self.kaspa).isEmpty)
    }

    @Test("local commands print what the page says")
    func localCommands() async throws {
        let checks = try Checks()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let home = ["HOME": dir.path("home")]
        let profile = ["--profile", "daily"]
        func run(_ command: String, _ arguments: [String]) async throws -> JSONValue {
            try await checks.run(command, arguments + profile, environment: home)
        }

        // Keys and profiles: a named profile under HOME.
        try await run("keys new", ["keys", "new"])
        let address = try #require(try await run("keys show", ["keys", "show"])["address"]?.stringValue)
        try await run("keys export", ["keys", "export", "--mnemonic"])
        try await run("keys addresses", ["keys", "addresses"])
        try await run("profile show", ["profile", "show"])
        try await checks.run("profile list", ["profile", "list"], environment: home)

        // Tasks: each change prints the task shape of `tasks list`.
        let id = try #require(
            try await run("tasks add", ["tasks", "add", "Water the plants", "--due", "tomorrow"])["taskId"]?.stringValue
        )
        try await run("tasks add", ["tasks", "add", "Call the bank", "--due", "today", "--once"])
        try await run("tasks edit", ["tasks", "edit", id, "--priority", "4"])
        try await run("tasks snooze", ["tasks", "snooze", id, "--until", "friday"])
        try await run("tasks done", ["tasks", "done", id])
        try await run("tasks today", ["tasks", "today"])
        try await run("tasks list", ["tasks", "list", "--status", "all"])
        try await run("tasks stats", ["tasks", "stats"])
        try await run("tasks archive", ["tasks", "archive", id])
        try await run("tasks unarchive", ["tasks", "unarchive", id])
        try await run("tasks preset save", ["tasks", "preset", "save", "soon", "--due-before", "friday"])
        try await run("tasks preset list", ["tasks", "preset", "list"])
        try await run("tasks delete", ["tasks", "delete", id, "--yes"])

        // Contacts, with a KaChat export to migrate.
        let peer = "kaspa:qrlnrdnkme58avh8mhcrr8rpj3tgfuj5qp70d6355s424yceaeqsjxklulud6"
        try await run("contacts add", ["contacts", "add", peer, "--alias", "Bob"])
        try await run("contacts list", ["contacts", "list", "--all"])
        let export = dir.path("contacts.json")
        try Data(
            #"{"kachat_contacts":[{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","address":"\#(peer)","alias":"Robert","addedAt":700000000.5,"isAutoAdded":false,"realtimeUpdatesDisabled":false,"isArchived":false}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: export))
        try await run("contacts migrate", ["contacts", "migrate", "--from", export])
        try await run("contacts purge", ["contacts", "purge"])

        // Kasia routing, with a KaChat snapshot naming one legacy contact.
        let snapshot = dir.path("snapshot.json")
        try JSONSerialization.data(withJSONObject: [
            "conversationAliases": [peer: ["a1b2c3d4e5f6"]], "ourAliases": [peer: ["0f1e2d3c4b5a"]],
            "kachat_contacts_wallet_\(address)": [["address": peer]],
        ]).write(to: URL(fileURLWithPath: snapshot))
        try await run("kasia routing migrate", ["kasia", "routing", "migrate", "--from", snapshot])
        try await run("kasia routing set", ["kasia", "routing", "set", peer, "deterministic"])
        try await run("kasia routing show", ["kasia", "routing", "show"])
        try await run("kasia routing watch", ["kasia", "routing", "watch"])
        try await run("kasia routing stage", ["kasia", "routing", "stage", "b"])
        let key = dir.path("key.hex")
        try Data(String(repeating: "1f", count: 32).utf8).write(to: URL(fileURLWithPath: key))
        try await checks.run("kasia alias", ["kasia", "alias", "--key-file", key, "--peer", peer])

        // Kaspa tools.
        try await checks.run("kaspa decode", ["kaspa", "decode", peer])
        try await checks.run("kaspa script", ["kaspa", "script", peer])
        let transaction = dir.path("tx.json")
        try KaspaTxVectors.rawJSON(transaction: 0, field: "unsignedTx").write(to: URL(fileURLWithPath: transaction))
        try await checks.run("kaspa tx mass", ["kaspa", "tx", "mass", transaction])

        // A protected profile of its own, and a BetterAuth export to import.
        let passphrase = dir.path("passphrase")
        try Data("correct horse battery staple\n".utf8).write(to: URL(fileURLWithPath: passphrase))
        try await checks.run("keys new", ["keys", "new", "--profile", dir.path("locked")])
        try await checks.run(
            "keys protect",
            ["keys", "protect", "--passphrase-file", passphrase, "--profile", dir.path("locked")]
                + KeysProtectCLITests.cheap)
        let users = dir.path("export.json")
        try Data(
            #"{"users":[{"id":"ba-1","name":"Imported","email":"imp@example.com","emailVerified":true,"image":null,"createdAt":"2025-01-31T12:00:00.000Z","updatedAt":"2025-01-31T12:00:00.000Z","username":"imported","displayUsername":"Imported"}],"accounts":[{"id":"acc-1","accountId":"ba-1","providerId":"credential","userId":"ba-1","password":"\#(AdminCLITests.vectorHash)","createdAt":"2025-01-31T12:00:00.000Z","updatedAt":"2025-01-31T12:00:00.000Z"}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: users))
        try await checks.run(
            "admin import-betterauth", ["admin", "import-betterauth", users, "--data-dir", dir.path("server")])

        #expect(checks.checked == Self.local)
    }
}
