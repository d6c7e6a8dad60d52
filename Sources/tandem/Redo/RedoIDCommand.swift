import ArgumentParser
import CanonicalJSON
import RedoProtocol

extension RedoCommand {
    /// `tandem redo id FILE`: the content id of the node in FILE (spec §3), whether or not the
    /// node's own `id` member agrees.
    struct ID: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "id",
            abstract: "Print the content id (sha256:…) of the node in FILE: SHA-256 of its canonical body."
        )

        @Argument(help: "A file holding one node as JSON.")
        var file: String

        func run() throws {
            guard case .object(let node) = try RedoFileInput.json(of: file) else {
                throw CLIError("file '\(file)' does not hold a JSON object")
            }
            do {
                CommandIO.write(try ContentAddress.id(of: node).description + "\n")
            } catch {
                throw CLIError("node in '\(file)' cannot be canonicalized: \(error.detail)")
            }
        }
    }
}
