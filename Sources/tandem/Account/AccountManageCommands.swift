import ArgumentParser
import Foundation
import TandemAPI
import TandemAccounts

extension AccountCommand {
    struct Passwd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "passwd",
            abstract: "Change the password; every other session ends unless --keep-other-sessions.",
            discussion:
                "The passwords are typed at prompts that do not echo, or read with --password-stdin: the current password on the first line, the new one on the second."
        )

        @OptionGroup var options: AccountOptions
        @Flag(name: .long, help: "Read the current and the new password, one per line, from standard input.")
        var passwordStdin = false
        @Flag(name: .long, help: "Leave the other devices signed in.") var keepOtherSessions = false

        func run() async throws {
            let current: String
            let new: String
            if passwordStdin {
                let lines = try SecretPrompt.linesFromStandardInput(2)
                (current, new) = (lines[0], lines[1])
            } else {
                current = try SecretPrompt.ask("Current password: ")
                new = try SecretPrompt.ask("New password: ")
                guard try SecretPrompt.ask("Repeat the new password: ") == new else {
                    throw CLIError("the new passwords differ")
                }
            }
            let client = try options.client()
            _ = try await accountCall { () async throws(AccountClientError) in
                try await client.changePassword(current: current, new: new, revokeOtherSessions: !keepOtherSessions)
            }
            CommandIO.write(keepOtherSessions ? "password changed\n" : "password changed; other sessions ended\n")
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update", abstract: "Change the account's name or username.")

        @OptionGroup var options: AccountOptions
        @Option(name: .long, help: "New display name.") var name: String?
        @Option(name: .long, help: "New username: 3–30 of A-Z a-z 0-9 _ . (case-insensitive).") var username: String?
        @Flag(name: .long, help: "Print the updated user as JSON (the shape of `account login --json`).")
        var json = false

        func validate() throws {
            guard name != nil || username != nil else { throw ValidationError("give --name or --username") }
        }

        func run() async throws {
            let client = try options.client()
            try await accountCall { () async throws(AccountClientError) in
                try await client.updateUser(UpdateUserRequest(name: name, username: username))
            }
            guard json else { return CommandIO.write("account updated\n") }
            let state = try await accountCall { () async throws(AccountClientError) in try await client.currentSession()
            }
            guard case .signedIn(let session) = state else {
                throw CLIError("the account was updated, but the session ended before it could be read back")
            }
            try CommandIO.printJSON(session.user)
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete the account and everything the server keeps of it. This cannot be undone.",
            discussion:
                "Asks for the password at a prompt that does not echo and for confirmation; with --password-stdin, --yes is the confirmation."
        )

        @OptionGroup var options: AccountOptions
        @Flag(name: .long, help: "Read the password from standard input.") var passwordStdin = false
        @Flag(name: .long, help: "Confirm the deletion without asking.") var yes = false

        func run() async throws {
            let password: String
            if passwordStdin {
                guard yes else { throw CLIError("--password-stdin needs --yes to confirm the deletion") }
                password = try SecretPrompt.linesFromStandardInput(1)[0]
            } else {
                if !yes {
                    guard SecretPrompt.isInteractive,
                        SecretPrompt.confirm("Type DELETE to delete this account for good: ") == "DELETE"
                    else { throw CLIError("not confirmed: nothing was deleted") }
                }
                password = try SecretPrompt.ask("Password: ")
            }
            let client = try options.client()
            try await accountCall { () async throws(AccountClientError) in
                try await client.deleteAccount(password: password)
            }
            CommandIO.write("account deleted\n")
        }
    }
}
