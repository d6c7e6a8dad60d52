import Foundation
import RedoProtocol
import TandemBasics
import TaskStore

extension ProfileOptions {
    /// The profile's task log and identity.
    func tasks() throws -> TaskEditor { try value.openTasks() }

    /// Now, by the profile's clock, as a Redo wall time.
    func wallTime() throws -> WallTime { try Self.wallTime(instantNow(), option: "the clock") }

    /// A date argument as a Redo wall time (``DateArgument``, issue 51 item 10): a day is local
    /// midnight, a time without a zone is local, and `today`, `tomorrow` and weekdays count from
    /// `now` (the `--now` of the command when it has one).
    static func wallTime(
        _ text: String, option: String, now: UnixMillis = SystemClock().now, timeZone: TimeZone = .current
    ) throws -> WallTime {
        guard let instant = DateArgument.parse(text, now: now, timeZone: timeZone) else {
            throw CLIError("\(option) '\(text)' is not a date (\(DateArgument.accepted))")
        }
        return try wallTime(instant, option: option)
    }

    /// ``wallTime(_:option:now:timeZone:)`` counting words from this command's now.
    func date(_ text: String, option: String) throws -> WallTime {
        try Self.wallTime(text, option: option, now: instantNow())
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
