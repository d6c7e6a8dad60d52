import ArgumentParser
import CanonicalJSON
import RedoProtocol

extension RedoCommand {
    /// `tandem redo replay FILE`: validate and replay a JSON array of nodes (spec §7).
    struct Replay: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "replay",
            abstract: "Replay a JSON array of nodes and print the resulting state.",
            discussion: """
                --json prints one object shaped like the vectors' scenario `expected`: accepted, rejected, \
                pending, tombstones, pruned, deletedTasks, tasks.
                """
        )

        @Argument(help: "A file holding a JSON array of nodes, in any order.")
        var file: String

        @Flag(help: "Require every node to be signed, as at a sync boundary.")
        var requireSignature = false

        @Flag(help: "Print the result as JSON.")
        var json = false

        func run() throws {
            guard case .array(let values) = try RedoFileInput.json(of: file) else {
                throw CLIError("file '\(file)' does not hold a JSON array of nodes")
            }
            let validator = NodeValidator(signaturePolicy: requireSignature ? .required : .verifyIfPresent)
            let result = ReplayResult.replaying(values, validator: validator)
            if json {
                try RedoFileInput.printCanonical(result.jsonValue)
                return
            }
            var lines = [
                "accepted \(result.accepted.count), rejected \(result.rejected.count), pending \(result.pending.count), "
                    + "tasks \(result.tasks.count), deleted \(result.deletedTasks.count)"
            ]
            for verdict in result.rejected + result.pending {
                lines.append("\(verdict.code.rawValue) \(verdict.id): \(verdict.detail)")
            }
            for task in result.tasks {
                let todo = task.currentTodo.map { " due \($0.deadline)" } ?? ""
                lines.append("\(task.taskID) p\(task.priority)\(task.archived ? " archived" : "") \(task.title)\(todo)")
            }
            CommandIO.write(lines.joined(separator: "\n") + "\n")
        }
    }
}
