import Foundation
import TandemAPI
import TandemServer
import Testing

/// `GET /api/redo/invitations` and `POST …/{taskId}/accept|decline` (issue 50 item 6) over
/// HTTP: a stranger's share is listed with its title as created, gives nothing until accepted,
/// and a sharer has a pace of shares of its own.
@Suite struct TaskInvitationRouteTests {
    static func invitations(_ account: SyncAccount) async throws -> [TaskInvitation] {
        let answer = try await account.client.sync(.get, APIPath.taskInvitations, cookie: account.cookie)
        #expect(answer.status == .ok, "\(answer.text)")
        return try answer.decode(TaskInvitationsResponse.self).invitations
    }

    static func share(_ task: String, by account: SyncAccount, with username: String) async throws
        -> APIClient.Answer
    {
        try await account.client.sync(
            .post, APIPath.shareTask(task), json: #"{"username":"\#(username)"}"#, cookie: account.cookie)
    }

    @Test func aStrangersShareIsListedWithItsTitleAndDeclinedQuietly() async throws {
        let server = try TestServer()
        defer { server.directory.remove() }
        try await server.test { client in
            let anna = try await SyncAccount.make(client, "anna")
            let ben = try await SyncAccount.make(client, "ben")
            // A title meant to reach Ben's terminal or page is carried as text, unchanged
            let create = try SyncNodes.create(anna.key, title: "Plan \u{1B}[31m<b>trip</b>")
            let rename = try SyncNodes.update(create, by: anna.key, title: "renamed")
            #expect(try await anna.push([create, rename]).map(\.status) == [.accepted, .accepted])
            let task = create.taskID.description
            let shared = try await Self.share(task, by: anna, with: "ben")
            #expect(try shared.decode(TaskShareResponse.self).invited)
            let listed = try await Self.invitations(ben)
            #expect(listed.map(\.taskId) == [task])
            #expect(listed.first?.from == "anna")
            #expect(listed.first?.title == "Plan \u{1B}[31m<b>trip</b>", "the title as created")
            #expect(try await Self.invitations(anna).isEmpty)

            // Only Ben answers it; Anna cannot accept on his behalf
            let byAnna = try await client.sync(.post, APIPath.acceptInvitation(task), cookie: anna.cookie)
            #expect(byAnna.status == .notFound)
            #expect(byAnna.errorCode == "INVITATION_NOT_FOUND")
            let notATask = try await client.sync(.post, APIPath.acceptInvitation("not-a-task"), cookie: ben.cookie)
            #expect(notATask.errorCode == "INVITATION_NOT_FOUND")

            let declined = try await client.sync(.post, APIPath.declineInvitation(task), cookie: ben.cookie)
            #expect(
                try declined.decode(TaskInvitationAnswer.self)
                    == TaskInvitationAnswer(taskId: task, from: "anna", accepted: false, added: false))
            #expect(try await Self.invitations(ben).isEmpty)
            #expect(try await ben.pullAll().isEmpty)
            let again = try await client.sync(.post, APIPath.declineInvitation(task), cookie: ben.cookie)
            #expect(again.status == .notFound)
            #expect(try await client.sync(.get, APIPath.taskInvitations).status == .unauthorized)
        }
    }

    @Test func aSharerPastItsPaceOfSharesIsAnswered429() async throws {
        var server = try TestServer(rateLimiting: true)
        server.configuration.syncWrites = SyncWriteLimits(shareBurst: 2, sharesPerHour: 60)
        defer { server.directory.remove() }
        let clock = server.clock
        try await server.test { client in
            let anna = try await SyncAccount.make(client, "anna")
            _ = try await SyncAccount.make(client, "ben")
            let carl = try await SyncAccount.make(client, "carl")
            var tasks: [String] = []
            for index in 0..<3 {
                let create = try SyncNodes.create(anna.key, title: "task \(index)")
                _ = try await anna.push([create])
                tasks.append(create.taskID.description)
            }
            let carlsTask = try SyncNodes.create(carl.key)
            _ = try await carl.push([carlsTask])
            #expect(try await Self.share(tasks[0], by: anna, with: "ben").status == .ok)
            #expect(try await Self.share(tasks[1], by: anna, with: "ben").status == .ok)
            let refused = try await Self.share(tasks[2], by: anna, with: "ben")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.errorCode == "RATE_LIMITED")
            #expect(refused.headers[.retryAfter] == "60")
            // Another sharer is not held back by Anna's pace
            #expect(try await Self.share(carlsTask.taskID.description, by: carl, with: "ben").status == .ok)
            clock.advance(by: .seconds(60))
            #expect(try await Self.share(tasks[2], by: anna, with: "ben").status == .ok)
        }
    }
}
