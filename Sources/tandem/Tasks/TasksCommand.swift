import ArgumentParser

/// `tandem tasks …`: Redo tasks, offline, against a profile's local change log (spec §11.3).
struct TasksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tasks",
        abstract: "Manage Redo tasks offline: every change is a signed node in the profile's local log.",
        subcommands: [
            Add.self, List.self, Show.self, Done.self,
            Snooze.self, Edit.self, Archive.self, Unarchive.self,
            Delete.self, Log.self, Sync.self, Share.self,
            Invitations.self, Accept.self, Decline.self,
            Stats.self, Today.self, Snapshot.self, Preset.self,
        ]
    )
}
