import ArgumentParser
import TandemAPI
import TandemSync

extension TasksCommand {
    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync", abstract: "Sync the task log with the server of the signed-in account.")

        @OptionGroup var options: AccountOptions
        @Flag(name: .long, help: "Print the sync report as JSON.") var json = false

        func run() async throws {
            let report = try await SyncRunner.tasks(options, quiet: json)
            if json { return try CommandIO.printJSON(report) }
            CommandIO.write(SyncRunner.line(report) + "\n")
        }
    }

    struct Share: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "share",
            abstract:
                "Let another account read and edit a task (syncs first, so the server has it); someone who has not accepted a share from you before gets an invitation."
        )

        @OptionGroup var options: AccountOptions
        @Argument(help: "Task id or unique id prefix.") var taskID: String
        @Option(name: .customLong("with"), help: "Username of the account to share with.") var username: String
        @Flag(name: .long, help: "Print {\"taskId\",\"username\",\"added\",\"invited\"} as JSON.") var json = false

        func run() async throws {
            let engine = try withTaskErrors {
                try options.profile.value.taskSync(
                    server: try SyncRunner.server(options), transport: options.transport)
            }
            let answer: TaskShareResponse
            do { answer = try await engine.share(taskID, with: username) } catch { throw CLIError(error.description) }
            if json { return try CommandIO.printJSON(answer) }
            CommandIO.write(
                answer.added
                    ? "shared \(answer.taskId) with \(answer.username)\n"
                    : answer.invited
                        ? "invited \(answer.username) to \(answer.taskId); they see it once they accept\n"
                        : "\(answer.username) could already read \(answer.taskId)\n")
        }
    }
}
