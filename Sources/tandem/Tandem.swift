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
        version: "0.1.0",
        subcommands: [
            KaspaCommand.self,
            KasiaCommand.self,
            KeysCommand.self,
            RedoCommand.self,
            TasksCommand.self,
            ContactsCommand.self,
            ServeCommand.self,
            AccountCommand.self,
            AdminCommand.self,
        ]
    )
}
