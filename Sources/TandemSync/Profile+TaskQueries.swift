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
            let editor = try openTasks()
            var query = overrides.query
            if let preset {
                guard let saved = try TaskPresets(editor: editor).preset(named: preset) else {
                    throw TaskQueryFailure(description: TaskPresetError.unknown(preset).description)
                }
                query = saved.query.narrowed(by: overrides)
            }
            query = try query.validated()
            let keys = try taskAccountKeys(identity: editor.identity)
            return query.run(on: try editor.liveTasks(), context: TaskQueryContext(now: now, accountKeys: keys))
        } catch let failure as TaskQueryFailure {
            throw failure
        } catch {
            throw TaskQueryFailure(description: String(describing: error))
        }
    }
}
