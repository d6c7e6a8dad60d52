import CanonicalJSON
import Foundation
import TandemTesting
import TestSupport
import Testing

@testable import RedoProtocol

/// The field table (issue 46 item 5): every place of RedoProtocol that checks a task or todo
/// field accepts exactly what its ``RedoField`` row accepts, and the rows are written as
/// `redo-fields.json` for the web app's modules (`Tests/WebApp/fields.test.mjs`, the browser
/// test). After a change to a row: `TANDEM_WRITE_VECTORS=1 swift test --filter RedoFieldTableTests`.
@Suite struct RedoFieldTableTests {
    /// Values to try on `field`: each side of its bounds, and values of every other type.
    static func probes(for field: RedoField) -> [JSONValue] {
        var values: [JSONValue] = [
            .null, .bool(true), .bool(false), .string(""), .string("x"), .string("2026-03-01T09:00:00.000Z"),
            .string("2026-02-30T09:00:00.000Z"), .number(1.5), .number(0), .number(1), .number(-1),
            .number(Double(RedoField.maxSafeInteger) + 1),
        ]
        if let range = field.range {
            for bound in [range.lowerBound - 1, range.lowerBound, range.upperBound, range.upperBound + 1] {
                values.append(.number(Double(bound)))
            }
        }
        return values
    }

    /// One CREATE with a title only, and the task Swift replays from it.
    static func defaults() throws -> JSONValue {
        let key = try SigningKey(seed: [UInt8](repeating: 7, count: 32))
        let node = try NodeDraft(
            taskID: TaskID(randomBytes: [UInt8](repeating: 0x42, count: 16)), action: .create,
            payload: try NodePayload.create(TaskFieldChanges(title: "Water the plants")).jsonObject(), parents: [],
            lamport: 1, wall: try #require(WallTime("2026-03-01T09:00:00.000Z")),
            author: Author(publicKey: key.publicKey, deviceID: try #require(DeviceID("vectors")))
        ).node(signedWith: nil)
        let task = try #require(Replayer.replay([node]).tasks.first)
        return .object(try JSONObject([("nodes", .array([.object(node.json)])), ("task", task.jsonValue)]))
    }

    static func file() throws -> [UInt8] {
        var probed: [JSONValue] = []
        for field in RedoField.all {
            for value in probes(for: field) {
                probed.append(
                    .object(
                        try JSONObject([
                            ("key", .string(field.key)), ("value", value), ("accepted", .bool(field.accepts(value))),
                        ])))
            }
        }
        let root = try JSONObject([
            ("fields", .array(try RedoField.all.map { try $0.jsonValue })), ("probes", .array(probed)),
            ("defaults", try defaults()),
        ])
        return try CanonicalJSON.canonicalBytes(of: .object(root))
    }

    @Test func theCommittedFieldTableIsTheSwiftTable() throws {
        #expect(
            try Vectors.committedFile("redo-fields.json", holds: try Self.file()),
            "redo-fields.json is stale: write it again with TANDEM_WRITE_VECTORS=1 and run the Node suite")
    }

    @Test func theMergesManualValuesAndThePayloadReaderAcceptWhatTheRowAccepts() throws {
        var accepted = 0
        var refused = 0
        for field in RedoField.all {
            for value in Self.probes(for: field) {
                let expected = field.accepts(value)
                if expected { accepted += 1 } else { refused += 1 }
                #expect((FieldValue.manual(value, for: field) != nil) == expected, "manual \(field.key) = \(value)")
                guard field.inTaskPayload else { continue }
                let update = try JSONObject([(field.key, value)])
                let read = (try? PayloadReader.read(update, action: .update)) != nil
                #expect(read == expected, "UPDATE \(field.key) = \(value)")
            }
        }
        // The probes say yes and no to every field.
        #expect(accepted >= RedoField.all.count)
        #expect(refused >= RedoField.all.count * 5)
    }

    @Test func theRowsAreTheSpecsFieldsWithinJSONsIntegers() {
        #expect(
            RedoField.taskFields.map(\.key) == [
                "title", "description", "privacy", "storyPoints", "priority", "frequencyDays", "archived",
            ])
        #expect(RedoField.todoFields.map(\.key) == ["deadline", "notes", "completed"])
        #expect(PayloadKey.taskFields == RedoField.taskPayloadFields.map(\.key))
        for field in RedoField.all {
            #expect(RedoField.named(field.key) == field)
            if let range = field.range {
                #expect(range.lowerBound >= -RedoField.maxSafeInteger && range.upperBound <= RedoField.maxSafeInteger)
                #expect(field.rule.contains(String(range.lowerBound)), "\(field.key): \(field.rule)")
            }
            #expect((field.range != nil) == (field.type == .integer))
            #expect((field.merge == .numeric) == (field.type == .integer))
            // A title is required, so its fallback is never a default anyone sees.
            if field.owner == .task && !field.nonEmpty {
                #expect(field.accepts(field.defaultValue ?? .null), "\(field.key)'s default")
            }
        }
    }

    @Test func aCreateWithoutFieldsReplaysToTheRowsDefaults() throws {
        guard case .object(let defaults) = try Self.defaults(), case .object(let task)? = defaults["task"] else {
            Issue.record("no task")
            return
        }
        for field in RedoField.taskFields where field != .title {
            #expect(task[field.key] == field.defaultValue, "\(field.key)")
        }
    }
}
