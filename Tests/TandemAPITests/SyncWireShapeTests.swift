import Foundation
import TandemAPI
import Testing

/// The wire shapes of issue 12's sync routes, pinned byte for byte: device keys, the per-node
/// push answer, sharing, contact records get/put and the 409 body a stale write gets.
@Suite struct SyncWireShapeTests {
    static let key = "3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29"
    static let first = String(repeating: "e", count: 64)
    static let second = String(repeating: "f", count: 64)

    @Test func deviceKeys() throws {
        try GoldenJSON.check(
            DeviceKeyRegistration(publicKey: Self.key, signature: String(repeating: "ab", count: 64)),
            "DeviceKeyRegistration")
        try GoldenJSON.check(
            DeviceKeyList(keys: [
                DeviceKey(publicKey: Self.key, createdAt: WireShapeTests.created),
                DeviceKey(
                    publicKey: String(repeating: "cd", count: 32), createdAt: WireShapeTests.created,
                    revokedAt: WireShapeTests.updated),
            ]), "DeviceKeyList")
    }

    @Test func redoNodesPushAnswerAndShare() throws {
        try GoldenJSON.check(
            RedoNodePushResponse(results: [
                RedoNodePushResult(id: String(repeating: "1", count: 64), status: .accepted),
                RedoNodePushResult(id: String(repeating: "2", count: 64), status: .duplicate),
                RedoNodePushResult(
                    id: String(repeating: "3", count: 64), status: .rejected, code: RedoSyncCode.keyNotRegistered,
                    message: "author.publicKey is not a live device key of this account"),
            ]), "RedoNodePushResponse")
        try GoldenJSON.check(TaskShareRequest(username: "Ada_L"), "TaskShareRequest")
        let task = "0f8fad5b-d9cb-469f-a165-70867728950e"
        try GoldenJSON.check(
            TaskShareResponse(taskId: task, username: "ada_l", added: false, invited: true), "TaskShareResponse")
        // An answer of a server from before invitations (issue 50 item 6) reads as not invited
        let older = #"{"added":true,"taskId":"\#(task)","username":"ada_l"}"#
        #expect(
            try APIJSON.decoder().decode(TaskShareResponse.self, from: Data(older.utf8))
                == TaskShareResponse(taskId: task, username: "ada_l", added: true, invited: false))
    }

    @Test func taskInvitations() throws {
        let created = Date(timeIntervalSince1970: 1_795_975_200.25)
        try GoldenJSON.check(
            TaskInvitationsResponse(invitations: [
                TaskInvitation(
                    taskId: "0f8fad5b-d9cb-469f-a165-70867728950e", from: "ada_l", title: "Water the plants",
                    createdAt: created),
                TaskInvitation(
                    taskId: "1f8fad5b-d9cb-469f-a165-70867728950e", from: nil, title: nil,
                    createdAt: created.addingTimeInterval(0.75)),
            ]), "TaskInvitationsResponse")
        try GoldenJSON.check(
            TaskInvitationAnswer(
                taskId: "0f8fad5b-d9cb-469f-a165-70867728950e", from: nil, accepted: true, added: true),
            "TaskInvitationAnswer")
    }

    @Test func contactRecords() throws {
        try GoldenJSON.check(
            ContactRecordsPut(records: [
                ContactRecordWrite(id: Self.first, box: "AAECAw==", baseVersion: 0),
                ContactRecordWrite(id: Self.second, box: "BAUG", baseVersion: 7),
            ]), "ContactRecordsPut")
        try GoldenJSON.check(
            ContactRecordsPutResponse(records: [.init(id: Self.first, version: 1), .init(id: Self.second, version: 8)]),
            "ContactRecordsPutResponse")
        try GoldenJSON.check(
            ContactRecordPage(
                records: [ContactRecordEntry(id: Self.first, box: "AAECAw==", version: 1)], cursor: "42",
                hasMore: true), "ContactRecordPage")
        try GoldenJSON.check(
            APIErrorBody(
                code: .contactVersionConflict,
                message: "stale baseVersion for 1 record(s): pull, merge and retry; first: \(Self.second)"),
            "APIErrorBody+contactVersionConflict")
        try GoldenJSON.check(
            APIErrorBody(code: .syncBusy, message: "Sync writes are queued (the queue is full); retry after 1 s."),
            "APIErrorBody+syncBusy")
    }
}
