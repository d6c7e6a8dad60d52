import ArgumentParser
import Foundation
import RedoProtocol
import TandemBasics
import TaskStore

/// Options every `tasks` subcommand shares: where the profile lives and what time it is.
struct TasksOptions: ParsableArguments {
    @Option(help: "Profile directory (key, device id, tasks.sqlite). Default: ~/.tandem/profile.")
    var profile: String?

    @Option(help: ArgumentHelp("Use this time as now (YYYY-MM-DD or YYYY-MM-DDTHH:mm:ss.sssZ), for scripts and tests.",
                               visibility: .hidden))
    var now: String?

    var profileURL: URL {
        if let profile { return URL(fileURLWithPath: profile) }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".tandem/profile")
    }

    func editor() throws -> TaskEditor {
        let directory = profileURL
        let identity = try ProfileIdentity.loadOrCreate(in: directory)
        let log = try TaskLog(path: directory.appendingPathComponent("tasks.sqlite").path)
        return TaskEditor(log: log, identity: identity)
    }

    /// The clock lives here, in the shell: the libraries take `now` as an argument.
    func currentTime() throws -> WallTime {
        if let now { return try Self.date(now, option: "--now") }
        guard let wall = WallTime(SystemClock().now) else { throw CLIError("system clock is out of range") }
        return wall
    }

    /// A day (`YYYY-MM-DD`, midnight UTC) or a full wall timestamp.
    static func date(_ text: String, option: String) throws -> WallTime {
        if let wall = WallTime(text) { return wall }
        if text.utf8.count == 10, let day = WallTime(text + "T00:00:00.000Z") { return day }
        throw CLIError("\(option) '\(text)' is not a date (YYYY-MM-DD or YYYY-MM-DDTHH:mm:ss.sssZ)")
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
