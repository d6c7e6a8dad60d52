import Foundation
import TestSupport
import Testing

/// `tandem tasks invitations|accept|decline` (issue 50 item 6), each a new `tandem` process
/// against a real `tandem serve`: a stranger's share waits for an answer, accepting brings the
/// task and lets the sharer's later shares through, declining drops it.
@Suite(.serialized) struct TaskInvitationCLITests {
    @Test func invitationsAreListedAcceptedAndDeclinedAsTextAndJSON() async throws {
        let server = try await ServerProcess.start(extraArguments: ["--no-rate-limit"])
        defer { server.stop() }
        let url = ["--server", server.baseURL]
        let alice = try await SyncCLITests.device(server, username: "alice", register: true)
        let bob = try await SyncCLITests.device(server, username: "bob", register: true)
        let carol = try await SyncCLITests.device(server, username: "carol", register: true)
        var tasks: [String] = []
        for title in ["Water the plants", "Feed the \u{1B}[31mcat\u{202E}", "Fix the bike"] {
            tasks.append(
                try await alice.ok("tasks", "add", title, "--now", "2026-01-01").trimmingCharacters(in: .newlines))
        }
        _ = try await alice.ok(["tasks", "share", tasks[0], "--with", "bob"] + url)
        _ = try await alice.ok(["tasks", "share", tasks[1], "--with", "carol"] + url)
        // A stranger's title reaches the terminal without its control characters
        await #expect(
            try carol.ok(["tasks", "invitations"] + url).hasPrefix("\(tasks[1])  from alice  Feed the [31mcat\n"))
        let listed = try #require(
            try SyncCLITests.json(try await bob.ok(["tasks", "invitations", "--json"] + url)) as? [String: Any])
        let rows = try #require(listed["invitations"] as? [[String: Any]])
        #expect(rows.map { $0["taskId"] as? String } == [tasks[0]])
        #expect(rows.first?["from"] as? String == "alice")
        #expect(rows.first?["title"] as? String == "Water the plants")
        #expect(rows.first?["createdAt"] is String)

        // Bob accepts by a prefix: the task syncs at once, and Alice's next share needs no answer
        await #expect(
            try bob.ok(["tasks", "accept", String(tasks[0].prefix(8))] + url)
                == "accepted \(tasks[0]) from alice; shares from alice now arrive without asking\n")
        await #expect(try bob.ok("tasks", "list").contains("Water the plants"))
        await #expect(try bob.ok(["tasks", "invitations"] + url) == "no invitations\n")
        await #expect(
            try alice.ok(["tasks", "share", tasks[2], "--with", "bob", "--json"] + url)
                == #"{"added":true,"invited":false,"taskId":"\#(tasks[2])","username":"bob"}"# + "\n")

        // Carol declines: nothing arrives, and answering again fails in one line
        await #expect(
            try carol.ok(["tasks", "decline", tasks[1], "--json"] + url)
                == #"{"accepted":false,"added":false,"from":"alice","taskId":"\#(tasks[1])"}"# + "\n")
        _ = try await carol.ok(["tasks", "sync"] + url)
        await #expect(!(try carol.ok("tasks", "list").contains("Feed the")))
        for arguments in [["tasks", "decline", tasks[1]], ["tasks", "accept", "ffff"]] {
            let refused = try await carol.run(arguments + url)
            #expect(refused.status == 1, "\(arguments)")
            #expect(refused.stderrLines.count == 1, "\(arguments): \(refused.stderrText)")
        }
        #expect(await server.stopped() == 0)
    }
}
