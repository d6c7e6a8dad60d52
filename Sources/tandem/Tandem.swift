import ArgumentParser

/// The `tandem` command: a headless client for every Tandem feature, and the server.
///
/// This target only parses arguments and wires library calls together; behaviour lives in the
/// library modules.
@main
struct Tandem: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tandem",
        abstract: "Local-first, end-to-end-encrypted messaging and tasks: client tools and server.",
        discussion: """
            Client commands keep their state in one profile: --profile NAME|DIR, else \
            $TANDEM_PROFILE, else the one `tandem profile use` chose, else ~/.tandem/profile. Bad input exits with status 1 and one line \
            on stderr; --json prints machine-readable output where a script would use it.
            """,
        version: "0.1.0",
        groupedSubcommands: [
            CommandGroup(
                name: "Client",
                subcommands: [
                    ProfileCommand.self, KeysCommand.self, AccountCommand.self, ContactsCommand.self, ChatCommand.self,
                    AppCommand.self,
                    TasksCommand.self,
                    SyncCommand.self, WalletCommand.self,
                ]),
            CommandGroup(name: "Server", subcommands: [ServeCommand.self, AdminCommand.self]),
            CommandGroup(
                name: "Protocol tools",
                subcommands: [KaspaCommand.self, KasiaCommand.self, RedoCommand.self]),
        ]
    )
}
