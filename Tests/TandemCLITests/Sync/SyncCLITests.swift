import Foundation
import TestSupport
import Testing

/// The output of issue 12's commands, text and `--json`, each a new `tandem` process against a
/// real `tandem serve`: `tandem sync`, `tasks sync`, `contacts sync`, `tasks share` (and its
/// invitations, `TaskInvitationCLITests`) and
/// `keys devices` (item 5; the CLI only prints what `TandemSync` reports).
@Suite(.serialized) struct SyncCLITests {
    struct Device {
        let profile: String
        let common: [String]

        func run(_ arguments: [String], stdin: String = "") async throws -> TandemProcess.Output {
            try await TandemProcess.run(arguments + common, stdin: Data(stdin.utf8))
        }

        /// Runs and expects success, returning stdout.
        func ok(_ arguments: String...) async throws -> String { try await ok(arguments) }

        func ok(_ arguments: [String]) async throws -> String {
            let output = try await run(arguments)
            #expect(output.status == 0, "\(arguments): \(output.stderrText)")
            return output.stdoutText
        }
    }

    static func device(_ server: ServerProcess, username: String, register: Bool, wallet: String? = nil) async throws
        -> Device
    {
        let directory = try TandemProcess.temporaryDirectory()
        let device = Device(profile: directory.path, common: ["--profile", directory.path])
        let account = ["--server", server.baseURL]
        if let wallet {
            try FileManager.default.copyItem(atPath: wallet, toPath: directory.path + "/wallet.seed")
        } else {
            _ = try await device.ok("keys", "new")
        }
        let answer =
            await register
            ? try device.run(
                [
                    "account", "register", "--username", username, "--email", "\(username)@example.com", "--name",
                    username, "--password-stdin",
                ] + account, stdin: "a long enough password\n")
            : try await device.run(
                ["account", "login", "--username", username, "--password-stdin"] + account,
                stdin: "a long enough password\n")
        #expect(answer.status == 0, "\(answer.stderrText)")
        return device
    }

    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test func syncCommandsPrintTheirReportsAsTextAndJSON() async throws {
        let server = try await ServerProcess.start(extraArguments: ["--no-rate-limit"])
        defer { server.stop() }
        let url = ["--server", server.baseURL]
        let phone = try await Self.device(server, username: "alice", register: true)
        let task = try await phone.ok("tasks", "add", "Water the plants", "--now", "2026-01-01")
            .trimmingCharacters(in: .newlines)
        let peer = try TandemProcess.temporaryDirectory().path
        _ = try await TandemProcess.run(["keys", "new", "--profile", peer])
        let shown = try #require(
            try Self.json(try await TandemProcess.run(["keys", "show", "--json", "--profile", peer]).stdoutText)
                as? [String: Any])
        let bob = try #require(shown["address"] as? String)
        _ = try await phone.ok("contacts", "add", bob, "--alias", "Bob")
        _ = try await phone.ok("tasks", "preset", "save", "soon", "--sort", "due")

        // tandem sync: one line per engine, or every report as JSON
        await #expect(
            try phone.ok(["sync"] + url)
                == "tasks: pulled 0, pushed 2\npresets: pulled 0, pushed 1\ncontacts: pulled 0, pushed 1, changed 0\n"
                + "chat: pulled 0, pushed 0, changed 0\n")
        await #expect(
            try phone.ok(["sync", "--json"] + url)
                == #"{"chat":{"changed":0,"conflicts":0,"pulled":0,"pushed":0,"unreadable":0},"#
                + #""contacts":{"changed":0,"conflicts":0,"pulled":1,"pushed":0,"unreadable":0},"#
                + #""presets":{"conflicts":0,"pulled":1,"pushed":0,"resealed":0,"unreadable":0,"waitingForKey":false},"#
                + #""tasks":{"alreadyOnServer":0,"invalidReceived":0,"pending":0,"pulled":2,"pushed":0,"rejected":[]}}"#
                + "\n")

        // A second device of the account: tasks sync and contacts sync on their own
        let laptop = try await Self.device(
            server, username: "alice", register: false, wallet: phone.profile + "/wallet.seed")
        await #expect(try laptop.ok(["tasks", "sync"] + url) == "tasks: pulled 2, pushed 0\n")
        await #expect(
            try laptop.ok(["tasks", "sync", "--json"] + url)
                == #"{"alreadyOnServer":0,"invalidReceived":0,"pending":0,"pulled":0,"pushed":0,"rejected":[]}"# + "\n")
        await #expect(try laptop.ok(["contacts", "sync"] + url) == "contacts: pulled 1, pushed 0, changed 1\n")
        await #expect(try laptop.ok(["tasks", "preset", "sync"] + url) == "presets: pulled 1, pushed 0\n")
        await #expect(try laptop.ok(["tasks", "preset", "list"]).hasPrefix("soon  --sort due"))
        await #expect(
            try laptop.ok(["contacts", "sync", "--json"] + url)
                == #"{"changed":0,"conflicts":0,"pulled":0,"pushed":0,"unreadable":0}"# + "\n")

        // keys devices: both device keys, this one marked
        let devices = try await phone.ok(["keys", "devices"] + url).split(separator: "\n")
        #expect(devices.count == 2)
        #expect(devices.filter { $0.hasSuffix("(this device)") }.count == 1)
        #expect(devices.allSatisfy { $0.contains("  since ") })
        let rows = try await #require(
            try Self.json(try laptop.ok(["keys", "devices", "--json"] + url)) as? [[String: Any]])
        #expect(rows.count == 2)
        #expect(rows.filter { $0["current"] as? Bool == true }.count == 1)
        #expect(rows.allSatisfy { ($0["publicKey"] as? String)?.count == 64 && $0["createdAt"] is String })

        // tasks share: Bob has not accepted Alice before, so an invitation (text, then JSON)
        _ = try await Self.device(server, username: "bob", register: true)
        await #expect(
            try phone.ok(["tasks", "share", task, "--with", "bob"] + url)
                == "invited bob to \(task); they see it once they accept\n")
        await #expect(
            try phone.ok(["tasks", "share", String(task.prefix(8)), "--with", "Bob", "--json"] + url)
                == #"{"added":false,"invited":true,"taskId":"\#(task)","username":"bob"}"# + "\n")
        let unknown = try await phone.run(["tasks", "share", task, "--with", "nobody_here"] + url)
        #expect(unknown.status == 1)
        #expect(unknown.stderrLines.count == 1)
        #expect(await server.stopped() == 0)
    }
}
