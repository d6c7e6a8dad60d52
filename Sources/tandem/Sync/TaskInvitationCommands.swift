import ArgumentParser
import Foundation
import TandemAPI
import TandemSync

/// `tandem tasks invitations|accept|decline` (issue 50 item 6): shares from accounts this one
/// has not accepted a share from before wait for an answer.
extension TasksCommand {
    struct Invitations: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "invitations",
            abstract: "List tasks shared with this account that wait for an answer (accept or decline).")

        @OptionGroup var options: AccountOptions
        @Flag(name: .long, help: "Print {\"invitations\":[{\"taskId\",\"from\",\"title\",\"createdAt\"}]} as JSON.")
        var json = false

        func run() async throws {
            let engine = try withTaskErrors {
                try options.profile.value.taskSync(server: try SyncRunner.server(options), transport: options.transport)
            }
            let invitations: [TaskInvitation]
            do { invitations = try await engine.invitations() } catch { throw CLIError(error.description) }
            if json { return try CommandIO.printJSON(TaskInvitationsResponse(invitations: invitations)) }
            if invitations.isEmpty { return CommandIO.write("no invitations\n") }
            for invitation in invitations {
                CommandIO.write(Self.line(invitation) + "\n")
            }
            CommandIO.write("answer with tandem tasks accept ID or tandem tasks decline ID\n")
        }

        /// One invitation on one line: the task id, who shared it, its title as created.
        static func line(_ invitation: TaskInvitation) -> String {
            let title = (invitation.title ?? "(no title on the server)")
                .split(whereSeparator: \.isNewline).joined(separator: " ")
            let from = invitation.from.map { "from \($0)" } ?? "from an account without a username"
            return "\(invitation.taskId)  \(from)  \(title)"
        }
    }

    struct Accept: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "accept",
            abstract:
                "Accept a task shared with this account: it syncs here, and the sharer's later shares need no answer.")

        @OptionGroup var options: AccountOptions
        @Argument(help: "Task id, or a prefix unique among the invitations.") var taskID: String
        @Flag(name: .long, help: "Print {\"taskId\",\"from\",\"accepted\",\"added\"} as JSON.") var json = false

        func run() async throws {
            try await TaskInvitationAnswerRunner.answer(taskID, accept: true, options: options, json: json)
        }
    }

    struct Decline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decline",
            abstract: "Decline a task shared with this account; the sharer is not told.")

        @OptionGroup var options: AccountOptions
        @Argument(help: "Task id, or a prefix unique among the invitations.") var taskID: String
        @Flag(name: .long, help: "Print {\"taskId\",\"from\",\"accepted\",\"added\"} as JSON.") var json = false

        func run() async throws {
            try await TaskInvitationAnswerRunner.answer(taskID, accept: false, options: options, json: json)
        }
    }
}

enum TaskInvitationAnswerRunner {
    static func answer(_ reference: String, accept: Bool, options: AccountOptions, json: Bool) async throws {
        let engine = try withTaskErrors {
            try options.profile.value.taskSync(server: try SyncRunner.server(options), transport: options.transport)
        }
        let answer: TaskInvitationAnswer
        do { answer = try await engine.answer(reference, accept: accept) } catch { throw CLIError(error.description) }
        if json { return try CommandIO.printJSON(answer) }
        let from = answer.from ?? "an account without a username"
        CommandIO.write(
            accept
                ? "accepted \(answer.taskId) from \(from); shares from \(from) now arrive without asking\n"
                : "declined \(answer.taskId) from \(from)\n")
    }
}
