import ArgumentParser
import Foundation
import TandemAPI
import TandemSync

/// `tandem sync`: tasks, saved task filters, contacts, then chat history, through the account's
/// server (issue 12 item 5, issue 27 item 3, issue 48 item 1).
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync tasks, saved task filters, contacts and chat history with the server of the signed-in account.",
        discussion: """
            Pulls what other devices and shared accounts wrote, then pushes local changes. Local \
            edits never wait for a sync; run it whenever the network is there. Contacts and chat \
            history are sealed with the wallet key, so they are skipped, with a note, when the \
            profile has none; a second device on the same seed gets every message, its person's \
            sent texts included, and conversations deleted on one device go on all. Saved \
            task filters are sealed with the account's presets key: a profile with the wallet key \
            derives it; one without gets it from a device that has it, once both have synced.
            """)

    @OptionGroup var options: AccountOptions
    @Flag(name: .long, help: "Print {\"tasks\",\"presets\",\"contacts\",\"chat\"} reports as JSON.") var json = false

    struct Output: Encodable {
        let tasks: TaskSyncReport
        let presets: PresetSyncReport?
        let presetsSkipped: String?
        let contacts: ContactsSyncReport?
        let contactsSkipped: String?
        let chat: ChatHistorySyncReport?
        let chatSkipped: String?
    }

    func run() async throws {
        let tasks = try await SyncRunner.tasks(options, quiet: json)
        let noWallet = "no wallet key in the profile"
        var presets: PresetSyncReport?
        var presetsFailure: (any Error)?
        do { presets = try await SyncRunner.presets(options) } catch {
            presetsFailure = error  // reported after contacts have had their turn
        }
        let presetsWaiting = presets?.waitingForKey == true ? PresetSyncReport.waitingNote : nil
        var contacts: ContactsSyncReport?
        do { contacts = try await SyncRunner.contacts(options, quiet: json) } catch SyncError.walletKeyMissing {}
        var chat: ChatHistorySyncReport?
        if contacts != nil { chat = try await SyncRunner.chat(options, quiet: json) }
        if let presetsFailure { throw presetsFailure }
        if json {
            return try CommandIO.printJSON(
                Output(
                    tasks: tasks, presets: presets, presetsSkipped: presetsWaiting, contacts: contacts,
                    contactsSkipped: contacts == nil ? noWallet : nil, chat: chat,
                    chatSkipped: chat == nil ? noWallet : nil))
        }
        CommandIO.write(SyncRunner.line(tasks) + "\n")
        if let presets { CommandIO.write(SyncRunner.line(presets) + "\n") }
        CommandIO.write((contacts.map { SyncRunner.line($0) } ?? "contacts: skipped (\(noWallet))") + "\n")
        CommandIO.write((chat.map { SyncRunner.line($0, kind: "chat") } ?? "chat: skipped (\(noWallet))") + "\n")
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

    /// Saved task filters.
    static func presets(_ options: AccountOptions) async throws -> PresetSyncReport {
        let engine = try options.profile.value.presetSync(server: try server(options), transport: options.transport)
        do { return try await engine.run() } catch { throw CLIError(error.description) }
    }

    static func contacts(_ options: AccountOptions, quiet: Bool) async throws -> ContactsSyncReport {
        let engine = try options.profile.value.contactsSync(server: try server(options), transport: options.transport)
        return try await runReporting(quiet: quiet) { progress throws(SyncError) in
            try await engine.run(progress: progress)
        }
    }

    static func chat(_ options: AccountOptions, quiet: Bool) async throws -> ChatHistorySyncReport {
        let engine = try options.profile.value.chatHistorySync(
            server: try server(options), transport: options.transport)
        return try await runReporting(quiet: quiet) { progress throws(SyncError) in
            try await engine.run(progress: progress)
        }
    }

    /// Runs `body` with a progress line for long pulls on a terminal's stderr (none in `--json`
    /// or when stderr is a file or a pipe; issue 51 item 9), and a one-line error.
    static func runReporting<T>(
        quiet: Bool, _ body: (@escaping @Sendable (SyncProgress) -> Void) async throws(SyncError) -> T
    ) async throws -> T {
        let shown = !quiet && isatty(STDERR_FILENO) == 1
        let progress: @Sendable (SyncProgress) -> Void = { step in
            guard shown else { return }
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

    static func line(_ report: PresetSyncReport) -> String {
        var parts = ["presets: pulled \(report.pulled)", "pushed \(report.pushed)"]
        if report.conflicts > 0 { parts.append("\(report.conflicts) conflict(s) merged") }
        if report.unreadable > 0 { parts.append("\(report.unreadable) unreadable") }
        if report.resealed > 0 { parts.append("\(report.resealed) sealed again with the account's key") }
        if report.waitingForKey { parts.append(PresetSyncReport.waitingNote) }
        return parts.joined(separator: ", ")
    }

    /// A contacts sync's line, or (`kind` "chat") a chat history sync's: the same report.
    static func line(_ report: ContactsSyncReport, kind: String = "contacts") -> String {
        var parts = ["\(kind): pulled \(report.pulled)", "pushed \(report.pushed)", "changed \(report.changed)"]
        if report.conflicts > 0 { parts.append("\(report.conflicts) conflict(s) merged") }
        if report.unreadable > 0 { parts.append("\(report.unreadable) unreadable") }
        return parts.joined(separator: ", ")
    }
}
