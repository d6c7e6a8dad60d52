import RedoProtocol
import TandemBasics
import TaskStore

extension ProfileOptions {
    /// The profile's task log and identity.
    func tasks() throws -> TaskEditor { try value.openTasks() }

    /// Now, by the profile's clock, as a Redo wall time.
    func wallTime() throws -> WallTime { try Self.wallTime(instantNow(), option: "the clock") }

    /// A date argument (`YYYY-MM-DD` or a full timestamp) as a Redo wall time.
    static func wallTime(_ text: String, option: String) throws -> WallTime {
        try wallTime(instant(text, option: option), option: option)
    }

    private static func wallTime(_ instant: UnixMillis, option: String) throws -> WallTime {
        guard let wall = WallTime(millisecondsSinceEpoch: instant.rawValue) else {
            throw CLIError("\(option): \(instant.iso8601) is outside the years 0001-9999")
        }
        return wall
    }
}

/// Runs a task-store call, turning its domain errors into one-line CLI errors.
func withTaskErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as TaskStoreError {
        throw CLIError(error.description)
    }
}
