import Foundation
import TandemAPI
import TandemBasics
import TandemServer
import TandemServerStore
import Testing

/// Share invitations (issue 50 item 6) on both backends: a share from an account the recipient
/// has not accepted before waits as an invitation and gives nothing until accepted; accepting
/// gives the task and lets that sharer's later shares through; declining removes it only.
extension StoreContractTests {
    private static func feed(_ store: any ServerStore, _ user: AccountID) async throws -> [String] {
        try await store.redoNodes(userID: user, after: 0, limit: 100).map { String(decoding: $0.json, as: UTF8.self) }
    }

    @Test(arguments: backends)
    func aStrangersShareWaitsAsAnInvitationUntilAccepted(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            try await Self.makeUsers(store, ["u1", "u2", "u3"])
            let (u1, u2, u3) = (AccountID("u1"), AccountID("u2"), AccountID("u3"))
            _ = try await store.appendRedoNodes(
                [
                    Self.node("a1", task: "A", create: true), Self.node("a2", task: "A", parents: ["a1"]),
                    Self.node("b1", task: "B", create: true), Self.node("d1", task: "D", create: true),
                ], userID: u1, now: Self.now)
            let later = UnixMillis(Self.now.rawValue + 1_000)
            #expect(try await store.shareRedoTask(taskID: "A", sharer: u1, recipient: u2, now: Self.now) == .invited)
            // Sharing again files nothing more: one invitation per task, the first one's time
            #expect(try await store.shareRedoTask(taskID: "A", sharer: u1, recipient: u2, now: later) == .invited)
            #expect(try await store.shareRedoTask(taskID: "B", sharer: u1, recipient: u2, now: later) == .invited)
            #expect(try await Self.feed(store, u2).isEmpty)
            let listed = try await store.taskInvitations(recipient: u2, limit: 10)
            #expect(
                listed == [
                    StoredTaskInvitation(
                        taskID: "A", sharerID: u1, sharerUsername: "u1", createdAt: Self.now,
                        firstNode: Array(#"{"id":"a1"}"#.utf8)),
                    StoredTaskInvitation(
                        taskID: "B", sharerID: u1, sharerUsername: "u1", createdAt: later,
                        firstNode: Array(#"{"id":"b1"}"#.utf8)),
                ])
            #expect(try await store.taskInvitations(recipient: u2, limit: 1).map(\.taskID) == ["A"])
            #expect(try await store.taskInvitations(recipient: u1, limit: 10).isEmpty)
            // Only the recipient answers, and only an invitation that exists
            #expect(try await store.acceptTaskInvitation(taskID: "A", recipient: u3, now: later) == .notFound)
            #expect(try await store.declineTaskInvitation(taskID: "C", recipient: u2) == .notFound)

            #expect(
                try await store.declineTaskInvitation(taskID: "B", recipient: u2) == .declined(sharerUsername: "u1"))
            #expect(try await store.declineTaskInvitation(taskID: "B", recipient: u2) == .notFound)
            #expect(try await Self.feed(store, u2).isEmpty)
            #expect(
                try await store.acceptTaskInvitation(taskID: "A", recipient: u2, now: later)
                    == .accepted(sharerUsername: "u1", added: true))
            #expect(try await Self.feed(store, u2) == [#"{"id":"a1"}"#, #"{"id":"a2"}"#])
            #expect(try await store.taskInvitations(recipient: u2, limit: 10).isEmpty)
            #expect(try await store.acceptTaskInvitation(taskID: "A", recipient: u2, now: later) == .notFound)

            // Accepted once: u1's shares now reach u2 directly, the declined task included
            #expect(try await store.shareRedoTask(taskID: "B", sharer: u1, recipient: u2, now: later) == .added)
            // u1 shared with u2, so u2's shares reach u1 directly too
            _ = try await store.appendRedoNodes([Self.node("c1", task: "C", create: true)], userID: u2, now: later)
            #expect(try await store.shareRedoTask(taskID: "C", sharer: u2, recipient: u1, now: later) == .added)
            // Trust is per pair: u3 has accepted nobody
            #expect(try await store.shareRedoTask(taskID: "D", sharer: u1, recipient: u3, now: later) == .invited)
            #expect(try await store.shareRedoTask(taskID: "C", sharer: u2, recipient: u3, now: later) == .invited)
            // Oldest first, then by task id
            let u3s = try await store.taskInvitations(recipient: u3, limit: 10)
            #expect(u3s.map(\.taskID) == ["C", "D"])
            #expect(u3s.map(\.sharerUsername) == ["u2", "u1"])
        }
    }

    @Test(arguments: backends)
    func anInvitationToATaskAlreadyGivenOrFromADeletedSharerGivesNothingTwice(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            try await Self.makeUsers(store, ["u1", "u2", "u3", "u4"])
            let (u1, u2, u3) = (AccountID("u1"), AccountID("u2"), AccountID("u3"))
            _ = try await store.appendRedoNodes(
                [Self.node("a1", task: "A", create: true), Self.node("e1", task: "E", create: true)], userID: u1,
                now: Self.now)
            // u3 trusts u1 (it shared with u1 before); u1 shares A with u2 and with u3
            _ = try await store.appendRedoNodes([Self.node("t1", task: "T", create: true)], userID: u3, now: Self.now)
            #expect(try await store.shareRedoTask(taskID: "T", sharer: u3, recipient: u1, now: Self.now) == .invited)
            #expect(try await store.shareRedoTask(taskID: "A", sharer: u1, recipient: u3, now: Self.now) == .added)
            // u3 shares A with u2 first; u2 then gets A from a trusted route before answering
            #expect(try await store.shareRedoTask(taskID: "A", sharer: u3, recipient: u2, now: Self.now) == .invited)
            #expect(try await store.shareRedoTask(taskID: "E", sharer: u1, recipient: u2, now: Self.now) == .invited)
            #expect(
                try await store.acceptTaskInvitation(taskID: "E", recipient: u2, now: Self.now)
                    == .accepted(sharerUsername: "u1", added: true))
            #expect(try await store.shareRedoTask(taskID: "A", sharer: u1, recipient: u2, now: Self.now) == .added)
            let feed = try await Self.feed(store, u2)
            #expect(
                try await store.acceptTaskInvitation(taskID: "A", recipient: u2, now: Self.now)
                    == .accepted(sharerUsername: "u3", added: false))
            #expect(try await Self.feed(store, u2) == feed)

            // Accepting trusted u3 too; a deleted sharer's invitations go with the account
            #expect(try await store.shareRedoTask(taskID: "T", sharer: u3, recipient: u2, now: Self.now) == .added)
            let u4 = AccountID("u4")
            _ = try await store.appendRedoNodes([Self.node("f1", task: "F", create: true)], userID: u4, now: Self.now)
            #expect(try await store.shareRedoTask(taskID: "F", sharer: u4, recipient: u2, now: Self.now) == .invited)
            try await store.deleteUser(id: u4)
            #expect(try await store.taskInvitations(recipient: u2, limit: 10).isEmpty)
            #expect(try await store.acceptTaskInvitation(taskID: "F", recipient: u2, now: Self.now) == .notFound)
        }
    }
}
