import ArgumentParser

/// `tandem redo …`: interop tools for the Redo v1 wire format (spec §3, §4, §6, §7), with exact
/// output contracts so other implementations can be checked against ours byte for byte.
struct RedoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo",
        abstract: "Redo v1 interop tools: canonical JSON, content ids, validation and replay.",
        subcommands: [Canon.self, ID.self, Validate.self, Replay.self]
    )
}
