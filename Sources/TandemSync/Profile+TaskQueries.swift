public import RedoApp
public import RedoProtocol
public import TandemProfile
import TaskStore

/// Why a task query could not run, in one line.
public struct TaskQueryFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
}

extension Profile {
    /// The profile's tasks matching a query (issue 27 item 2): the saved preset `preset` when
    /// one is named, narrowed by `overrides`, else `overrides` alone; "mine" is any of the
    /// account's device keys (``taskAccountKeys(identity:)``). The state comes from the task
    /// log's projection, which always equals a fresh replay.
    public func findTasks(_ overrides: TaskQueryOverrides, preset: String? = nil, now: WallTime)
        throws(TaskQueryFailure)
        -> [TaskQueryRow]
    {
        do {
            var query = overrides.query
            var identity: ProfileIdentity?
            let tasks: [TaskSummary]
            // Without a preset nothing but the live tasks is read: over a read-only connection
            // when the log is current (issue 49 item 2), else through the opened log.
            if preset == nil, let read = readTaskSummaries() {
                tasks = read
            } else {
                let editor = try openTasks()
                if let preset {
                    guard let saved = try TaskPresets(editor: editor).preset(named: preset) else {
                        throw TaskQueryFailure(description: TaskPresetError.unknown(preset).description)
                    }
                    query = saved.query.narrowed(by: overrides)
                }
                identity = editor.identity
                tasks = try editor.liveSummaries()
            }
            query = try query.validated()
            // The account's keys decide only "mine" and "shared": no other query reads a key.
            var keys: Set<UserID> = []
            if query.ownership != nil { keys = try taskAccountKeys(identity: try identity ?? taskIdentity()) }
            return query.run(on: tasks, context: TaskQueryContext(now: now, accountKeys: keys))
        } catch let failure as TaskQueryFailure {
            throw failure
        } catch {
            throw TaskQueryFailure(description: String(describing: error))
        }
    }
}
