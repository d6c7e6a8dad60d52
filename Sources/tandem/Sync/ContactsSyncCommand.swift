import ArgumentParser
import TandemSync

extension ContactsCommand {
    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Sync the wallet's contacts with the server as encrypted records (the server sees no contact).")

        @OptionGroup var options: AccountOptions
        @Flag(name: .long, help: "Print the sync report as JSON.") var json = false

        func run() async throws {
            let report: ContactsSyncReport
            do { report = try await SyncRunner.contacts(options, quiet: json) } catch let error as SyncError {
                throw CLIError(error.description)
            }
            if json { return try CommandIO.printJSON(report) }
            CommandIO.write(SyncRunner.line(report) + "\n")
        }
    }
}
