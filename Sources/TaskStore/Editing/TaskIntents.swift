public import Foundation
public import RedoApp
public import RedoProtocol

/// The shortcuts of the Redo app (issue 27 item 5) as plain functions over the profile's task
/// log: what an App Intent's `perform()` calls, with errors worded for the person who spoke
/// or tapped the shortcut.
public struct TaskIntents: Sendable {
    public let editor: TaskEditor

    public init(editor: TaskEditor) { self.editor = editor }

    /// "Add a task called TITLE": the task with the defaults of `tasks add`.
    @discardableResult
    public func addTask(title: String, now: WallTime) throws(TaskIntentError) -> RedoTask {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .emptyTitle }
        return try storing { try editor.addTask(title: trimmed, now: now) }
    }

    /// "Complete TASK": by task id (or a prefix of 4+ characters) or by a unique title prefix,
    /// among the tasks with a todo to complete.
    @discardableResult
    public func completeTask(_ reference: String, now: WallTime) throws(TaskIntentError) -> RedoTask {
        let tasks = try storing { try editor.liveTasks() }
        let open = tasks.filter { !$0.archived && $0.currentTodo != nil }
        switch TaskMatch.find(reference, in: open) {
        case .one(let task):
            return try storing { try editor.complete(task.taskID.description, now: now) }
        case .many(let candidates):
            throw .ambiguous(reference, titles: candidates.map(\.title))
        case .none:
            if case .one(let task) = TaskMatch.find(reference, in: tasks) { throw .nothingToComplete(task.title) }
            throw .noTask(reference)
        }
    }

    /// "What's due today": open todos due today or overdue, overdue first.
    public func dueToday(now: WallTime, timeZone: TimeZone) throws(TaskIntentError) -> [TaskAgenda.Item] {
        TaskAgenda(tasks: try storing { try editor.liveTasks() }, now: now, timeZone: timeZone).items
    }

    /// The widget's snapshot of the log at `now`.
    public func snapshot(now: WallTime, timeZone: TimeZone, limit: Int = 5) throws(TaskIntentError) -> TaskSnapshot {
        TaskSnapshot(tasks: try storing { try editor.liveTasks() }, now: now, timeZone: timeZone, limit: limit)
    }

    private func storing<T>(_ body: () throws -> T) throws(TaskIntentError) -> T {
        do { return try body() } catch let error as TaskStoreError { throw .failed(error.description) } catch {
            throw .failed(String(describing: error))
        }
    }
}

/// Why a shortcut could not do what was asked, as a sentence to show or speak.
public enum TaskIntentError: Error, Sendable, Equatable, CustomStringConvertible {
    case emptyTitle
    case noTask(String)
    case ambiguous(String, titles: [String])
    /// The task exists but has no open todo (archived, or completed with nothing scheduled).
    case nothingToComplete(String)
    case failed(String)

    public var description: String {
        switch self {
        case .emptyTitle: "A task needs a title."
        case .noTask(let reference): "No task matches “\(reference)”."
        case .ambiguous(let reference, let titles):
            "“\(reference)” matches \(titles.count) tasks: \(titles.prefix(5).joined(separator: ", "))"
                + (titles.count > 5 ? ", …" : "") + ". Say more of the title."
        case .nothingToComplete(let title): "“\(title)” has nothing to complete right now."
        case .failed(let reason): "The task list could not be updated: \(reason)."
        }
    }
}
