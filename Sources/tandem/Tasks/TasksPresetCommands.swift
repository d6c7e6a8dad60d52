import ArgumentParser
import Foundation
import RedoApp
import TandemProfile
import TandemSync
import TaskStore

extension TasksCommand {
    /// `tasks preset …`: saved filters, synced between the account's devices (issue 27 item 3).
    struct Preset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "preset",
            abstract: "Save, list, rename and delete named filters for `tasks list --preset NAME`.",
            discussion: """
                Presets live in the profile and sync, sealed with the wallet key, through `tandem sync` \\
                or `tandem tasks preset sync`: a rename on one device and a delete on another end \\
                the same on both (the later change wins).
                """,
            subcommands: [Save.self, List.self, Rename.self, Delete.self, PresetSync.self])
    }
}

/// Runs a preset-store call, turning its errors into one-line CLI errors.
func withPresetErrors<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as TaskPresetError { throw CLIError(error.description) }
}

extension TasksCommand.Preset {
    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "save", abstract: "Save the filter flags given under NAME (replacing a preset of that name).")

        @OptionGroup var options: ProfileOptions
        @Argument(help: "The preset's name.") var name: String
        @OptionGroup var query: TaskQueryOptions
        @Flag(help: "Print the saved preset as JSON.") var json = false

        func run() throws {
            let saved = try query.checked(query.overrides().query)
            let presets = try options.value.openTaskPresets()
            let preset = try withPresetErrors { try presets.save(name: name, query: saved, now: options.instantNow()) }
            if json { return try CommandIO.printJSON(PresetRow(preset)) }
            CommandIO.write("saved preset '\(preset.name)'\n")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the saved presets.")

        @OptionGroup var options: ProfileOptions
        @Flag(help: "Print a JSON array of {name, query}.") var json = false

        func run() throws {
            let presets = try withPresetErrors { try options.value.openTaskPresets().list() }
            if json { return try CommandIO.printJSON(presets.map(PresetRow.init)) }
            let lines = presets.map { "\($0.name)  \($0.query.flags(clock: options.clock))" }
            CommandIO.write(lines.isEmpty ? "no presets\n" : lines.joined(separator: "\n") + "\n")
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a preset.")

        @OptionGroup var options: ProfileOptions
        @Argument(help: "The preset's name.") var old: String
        @Argument(help: "Its new name.") var new: String

        func run() throws {
            let presets = try options.value.openTaskPresets()
            let preset = try withPresetErrors { try presets.rename(old, to: new, now: options.instantNow()) }
            CommandIO.write("renamed to '\(preset.name)'\n")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a preset.")

        @OptionGroup var options: ProfileOptions
        @Argument(help: "The preset's name.") var name: String

        func run() throws {
            let presets = try options.value.openTaskPresets()
            try withPresetErrors { try presets.delete(named: name, now: options.instantNow()) }
            CommandIO.write("deleted preset '\(name.trimmingCharacters(in: .whitespacesAndNewlines))'\n")
        }
    }

    struct PresetSync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync", abstract: "Sync the saved presets with the server of the signed-in account.")

        @OptionGroup var options: AccountOptions
        @Flag(help: "Print the sync report as JSON.") var json = false

        func run() async throws {
            let report: PresetSyncReport
            do { report = try await SyncRunner.presets(options) } catch let error as SyncError {
                throw CLIError(error.description)
            }
            if json { return try CommandIO.printJSON(report) }
            CommandIO.write(SyncRunner.line(report) + "\n")
        }
    }
}

/// A preset as `preset list --json` prints it.
struct PresetRow: Encodable {
    let name: String
    let query: TaskQuery

    init(_ preset: TaskPreset) {
        name = preset.name
        query = preset.query
    }
}
