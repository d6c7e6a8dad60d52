import CanonicalJSON
import Foundation
import RedoProtocol
import Testing

/// `NodePayload.jsonObject()` is the inverse of the validator's payload reading (spec §5): what
/// a producer writes validates and reads back to the same payload.
@Suite struct NodePayloadEncodingTests {
    static let todo = TodoID("0b6c1f9e-2a34-4d5e-8f60-7a8b9c0d1e2f")
    static let wall = WallTime(millisecondsSinceEpoch: 1_767_225_600_000)

    @Test func payloadsCarryTheSpecMemberNames() throws {
        let todo = try #require(Self.todo)
        let wall = try #require(Self.wall)
        let cases: [(NodePayload, String)] = [
            (
                .create(TaskFieldChanges(title: "Water plants", priority: 2, frequencyDays: 3)),
                #"{"frequencyDays":3,"priority":2,"title":"Water plants"}"#
            ),
            (
                .update(TaskFieldChanges(description: "south side", privacy: true, storyPoints: 0)),
                #"{"description":"south side","privacy":true,"storyPoints":0}"#
            ),
            (
                .createTodo(todo: todo, deadline: wall, notes: nil),
                #"{"deadline":"\#(wall)","todoTaskId":"\#(todo)"}"#
            ),
            (
                .completeTodo(todo: todo, completed: wall, notes: "done"),
                #"{"completed":"\#(wall)","notes":"done","todoTaskId":"\#(todo)"}"#
            ),
            (.snooze(todo: todo, change: .extendByDays(2), notes: nil), #"{"daysToExtend":2,"todoTaskId":"\#(todo)"}"#),
            (
                .snooze(todo: todo, change: .newDeadline(wall), notes: nil),
                #"{"newDeadline":"\#(wall)","todoTaskId":"\#(todo)"}"#
            ),
            (.archive, "{}"),
            (.unarchive, "{}"),
        ]
        for (payload, expected) in cases {
            let text = try CanonicalJSON.canonicalString(of: .object(try payload.jsonObject()))
            #expect(text == expected, "\(payload.action)")
        }
    }

    @Test func writtenPayloadsValidateAndReadBack() throws {
        let vector = try RedoVectorFile.section("payloadSizeBoundary")
        let template = try #require(vector["template"])
        let key = try RedoVectorFile.signingKey(template["signer"]?.text ?? "")
        let author = Author(
            publicKey: key.publicKey, deviceID: try #require(DeviceID(template["deviceId"]?.text ?? "")))
        let taskID = try #require(TaskID(template["taskId"]?.text ?? ""))
        let wall = try #require(WallTime(template["wall"]?.text ?? ""))
        let root = try NodeDraft(
            taskID: taskID, action: .create,
            payload: try NodePayload.create(TaskFieldChanges(title: "x")).jsonObject(),
            parents: [], lamport: 1, wall: wall, author: author
        ).node(signedWith: key)
        let todo = try #require(Self.todo)
        let payloads: [NodePayload] = [
            .update(TaskFieldChanges(title: "y", frequencyDays: 9)),
            .createTodo(todo: todo, deadline: wall, notes: "n"),
            .completeTodo(todo: todo, completed: wall, notes: nil),
            .snooze(todo: todo, change: .extendByDays(1), notes: nil),
            .archive, .unarchive,
            .delete(deletedChain: [root.id]),
        ]
        for payload in payloads {
            let written = try payload.jsonObject()
            let node = try NodeDraft(
                taskID: taskID, action: payload.action, payload: written, parents: [root.id], lamport: 2, wall: wall,
                author: author
            ).node(signedWith: key)
            let validated = try NodeValidator().validate(.object(node.json))
            #expect(validated.action == payload.action)
            #expect(try validated.payload.jsonObject() == written, "\(payload.action)")
        }
    }
}
