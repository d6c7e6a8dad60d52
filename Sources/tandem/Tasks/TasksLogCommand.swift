import ArgumentParser
import CanonicalJSON
import RedoProtocol
import TandemBasics

extension TasksCommand {
    /// `tasks log ID`: the task's nodes in total order (spec §7.1).
    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log", abstract: "Show a task's change nodes in total order (deleted tasks too).")

        @OptionGroup var options: ProfileOptions
        @Argument(help: "Task id or a unique prefix of it.") var id: String
        @Flag(help: "Print the nodes themselves as a JSON array.") var json = false

        func run() throws {
            let nodes = try withTaskErrors { try options.tasks().history(id) }
            if json { return try RedoFileInput.printCanonical(.array(nodes.map { .object($0.json) })) }
            let clock = options.clock
            let lines = nodes.map { node in
                "\(node.lamport)  \(clock.text(node.wall.instant))  \(node.action.rawValue)  \(node.author.deviceID)  \(node.id)"
            }
            CommandIO.write(lines.joined(separator: "\n") + "\n")
        }
    }
}
