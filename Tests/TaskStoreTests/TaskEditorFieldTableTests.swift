import CanonicalJSON
import RedoProtocol
import Testing

@testable import TaskStore

/// The task editor refuses exactly what the field table refuses (issue 46 item 5), naming the
/// field and the row's rule.
@Suite struct TaskEditorFieldTableTests {
    /// A change of one integer field, by field.
    static let integerChanges: [RedoField: @Sendable (Int64) -> TaskFieldChanges] = [
        .storyPoints: { TaskFieldChanges(storyPoints: $0) },
        .priority: { TaskFieldChanges(priority: $0) },
        .frequencyDays: { TaskFieldChanges(frequencyDays: $0) },
    ]

    @Test func theEditorRefusesWhatTheRowRefusesWithTheRowsRule() throws {
        let integers = RedoField.taskPayloadFields.filter { $0.type == .integer }
        #expect(Set(integers) == Set(Self.integerChanges.keys))
        for field in integers {
            let range = try #require(field.range)
            let change = try #require(Self.integerChanges[field])
            for value in [range.lowerBound - 1, range.lowerBound, range.upperBound, range.upperBound + 1] {
                let refusal: TaskStoreError?
                do {
                    try TaskEditor.check(change(value))
                    refusal = nil
                } catch { refusal = error as? TaskStoreError }
                #expect((refusal == nil) == field.accepts(.number(Double(value))), "\(field.key) = \(value)")
                if case .invalidField(_, let reason)? = refusal { #expect(reason == field.rule) }
            }
        }
        #expect(throws: TaskStoreError.invalidField(name: "title", reason: RedoField.title.rule)) {
            try TaskEditor.check(TaskFieldChanges(title: ""))
        }
        try TaskEditor.check(TaskFieldChanges(title: "x", description: "", privacy: true))
    }
}
