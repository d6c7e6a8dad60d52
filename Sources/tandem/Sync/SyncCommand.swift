import ArgumentParser
import Foundation
import TandemAPI
import TandemClient

/// `tandem sync`: tasks, then contacts, through the account's server (issue 12 item 5).
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync tasks and contacts with the server of the signed-in account.",
        discussion: """
            Pulls what other devices and shared accounts wrote, then pushes local changes. Local \
            edits never wait for a sync; run it whenever the network is there. Contacts are \
            skipped, with a note, when the profile has no wallet key.
            """)

    @OptionGroup var options: AccountOptions
    @Flag(name: .long, help: "Print {\"tasks\",\"contacts\"} reports as JSON.") var json = false

    struct Output: Encodable {
        let tasks: TaskSyncReport
        let contacts: ContactsSyncReport?
        let contactsSkipped: String?
    }

    func run() async throws {
        let tasks = try await SyncRunner.tasks(options, quiet: json)
        var contacts: ContactsSyncReport?
        var skipped: String?
        do {
            contacts = try await SyncRunner.contacts(options, quiet: json)
        } catch SyncError.walletKeyMissing {
            skipped = "no wallet key in the profile"
        }
        if json { return try CommandIO.printJSON(Output(tasks: tasks, contacts: contacts, contactsSkipped: skipped)) }
        CommandIO.write(SyncRunner.line(tasks) + "\n")
        CommandIO.write((contacts.map(SyncRunner.line) ?? "contacts: skipped (\(skipped ?? ""))") + "\n")
    }
}

/// Runs the engines for the commands and words their reports.
enum SyncRunner {
    static func server(_ options: AccountOptions) throws -> URL { try options.client().server }

    static func tasks(_ options: AccountOptions, quiet: Bool) async throws -> TaskSyncReport {
        let engine = try withTaskErrors {
            try options.profile.value.taskSync(server: try server(options), transport: options.transport)
        }
        return try await runReporting(quiet: quiet) { progress throws(SyncError) in
            try await engine.run(progress: progress)
        }
    }

    static func contacts(_ options: AccountOptions, quiet: Bool) async throws -> ContactsSyncReport {
        let engine = try options.profile.value.contactsSync(server: try server(options), transport: options.transport)
        return try await runReporting(quiet: quiet) { progress throws(SyncError) in
            try await engine.run(progress: progress)
        }
    }

    /// Runs `body` with a progress line on stderr for long pulls, and a one-line error.
    static func runReporting<T>(
        quiet: Bool, _ body: (@escaping @Sendable (SyncProgress) -> Void) async throws(SyncError) -> T
    ) async throws -> T {
        let progress: @Sendable (SyncProgress) -> Void = { step in
            guard !quiet else { return }
            let more = step.hasMore ? "…" : ", done"
            FileHandle.standardError.write(Data("\rpulling \(step.kind): \(step.received) received\(more)".utf8))
            if !step.hasMore { FileHandle.standardError.write(Data("\n".utf8)) }
        }
        do { return try await body(progress) } catch { throw CLIError(error.description) }
    }

    static func line(_ report: TaskSyncReport) -> String {
        var parts = ["tasks: pulled \(report.pulled)", "pushed \(report.pushed)"]
        if report.alreadyOnServer > 0 { parts.append("\(report.alreadyOnServer) already on the server") }
        if report.pending > 0 { parts.append("\(report.pending) pending (parents not on the server yet)") }
        if report.invalidReceived > 0 { parts.append("\(report.invalidReceived) invalid received") }
        if !report.rejected.isEmpty {
            let codes = Set(report.rejected.compactMap(\.code)).sorted().joined(separator: ", ")
            parts.append("\(report.rejected.count) rejected (\(codes))")
        }
        return parts.joined(separator: ", ")
    }

    static func line(_ report: ContactsSyncReport) -> String {
        var parts = ["contacts: pulled \(report.pulled)", "pushed \(report.pushed)", "changed \(report.changed)"]
        if report.conflicts > 0 { parts.append("\(report.conflicts) conflict(s) merged") }
        if report.unreadable > 0 { parts.append("\(report.unreadable) unreadable") }
        return parts.joined(separator: ", ")
    }
}
