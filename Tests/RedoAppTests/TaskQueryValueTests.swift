import Foundation
import RedoApp
import RedoProtocol
import Testing

@Suite struct TaskQueryValueTests {
    @Test func validationNamesTheBadBound() {
        #expect(throws: TaskQueryError.priorityOutOfRange(option: "priority-min", value: 0)) {
            try TaskQuery(priorityMin: 0).validated()
        }
        #expect(throws: TaskQueryError.priorityOutOfRange(option: "priority-max", value: 6)) {
            try TaskQuery(priorityMax: 6).validated()
        }
        #expect(throws: TaskQueryError.emptyPriorityRange(min: 4, max: 2)) {
            try TaskQuery(priorityMin: 4, priorityMax: 2).validated()
        }
        #expect(throws: TaskQueryError.limitNotPositive(0)) { try TaskQuery(limit: 0).validated() }
        #expect(throws: (any Error).self) { try TaskQuery(overdue: true, noDue: true).validated() }
        #expect((try? TaskQuery(priorityMin: 2, priorityMax: 2, limit: 1).validated()) != nil)
        // No due date alone means any status: an active task always has an open todo.
        #expect(TaskQueryOverrides(noDue: true).query.status == .all)
        #expect(TaskQueryOverrides(status: .completed, noDue: true).query.status == .completed)
        #expect(throws: (any Error).self) { try TaskQuery(status: .active, noDue: true).validated() }
    }

    @Test func narrowingKeepsThePresetAndTightensIt() throws {
        let early = try #require(WallTime("2026-01-01T00:00:00.000Z"))
        let late = try #require(WallTime("2026-06-01T00:00:00.000Z"))
        let preset = TaskQuery(
            search: "garden", status: .all, priorityMin: 2, dueBefore: late, ownership: .mine, sort: .due, limit: 10)
        let narrowed = preset.narrowed(
            by: TaskQueryOverrides(search: "weekly", priorityMin: 1, priorityMax: 4, dueBefore: early, limit: 20))
        #expect(narrowed.search == "garden weekly")
        #expect(narrowed.status == .all)
        #expect(narrowed.priorityMin == 2)
        #expect(narrowed.priorityMax == 4)
        #expect(narrowed.dueBefore == early)
        #expect(narrowed.ownership == .mine)
        #expect(narrowed.sort == .due)
        #expect(narrowed.limit == 10)
        #expect(preset.narrowed(by: TaskQueryOverrides()) == preset)
        #expect(TaskQueryOverrides().query == TaskQuery())
    }

    @Test func aQueryRoundTripsThroughJSON() throws {
        let query = TaskQuery(
            search: "a b", status: .completed, priorityMin: 1, priorityMax: 3,
            dueAfter: WallTime("2026-01-01T00:00:00.000Z"), overdue: true, ownership: .shared, sort: .title, limit: 3)
        let data = try JSONEncoder().encode(query)
        #expect(try JSONDecoder().decode(TaskQuery.self, from: data) == query)
    }
}
