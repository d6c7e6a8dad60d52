import ArgumentParser

/// `tandem tasks …`: Redo tasks, offline, against a profile's local change log (spec §11.3).
struct TasksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tasks",
        abstract: "Manage Redo tasks offline: every change is a signed node in the profile's local log.",
        subcommands: [
            TasksAddCommand.self, TasksListCommand.self, TasksShowCommand.self, TasksDoneCommand.self,
            TasksSnoozeCommand.self, TasksEditCommand.self, TasksArchiveCommand.self, TasksUnarchiveCommand.self,
            TasksDeleteCommand.self, TasksLogCommand.self,
        ]
    )
}
