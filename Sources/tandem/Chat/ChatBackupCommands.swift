public import ArgumentParser
import Foundation
import SecretFiles
public import TandemMessaging

extension ChatBackupFormat: ExpressibleByArgument {}

extension ChatCommand {
    /// `tandem chat export --out FILE [--format tandem|kachat]` (issue 48 item 2).
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write an encrypted backup of the profile's chats: Tandem's archive, or KaChat's.",
            discussion: """
                tandem (the default): the whole chat state of the profile (history, deleted \
                conversations, read marks, reactions, routing states, the contacts' names), \
                encrypted under a key derived from the wallet key. kachat: KaChat's encrypted \
                backup (kachat-backup.json), which KaChat on the same seed restores. Messages the \
                network has not taken (pending or failed) are never exported. The file is created \
                0600 and replaces FILE if it exists.
                """)

        @OptionGroup var options: LocalChatOptions
        @Option(name: .long, help: ArgumentHelp("The backup file to write.", valueName: "file")) var out: String
        @Option(name: .long, help: ArgumentHelp("tandem or kachat.", valueName: "format")) var format = ChatBackupFormat
            .tandem
        @Flag(name: .long, help: "Print {file, format, conversations, messages} as JSON.") var json = false

        struct Output: Encodable {
            let file: String
            let format: ChatBackupFormat
            let conversations: Int
            let messages: Int
        }

        func run() async throws {
            let messenger = try options.messenger()
            let (file, report) = try await chatCall { try await messenger.exportChatBackup(format: format) }
            do { try SecretFile.replace(URL(fileURLWithPath: out), contents: file) } catch {
                throw CLIError("--out \(out): \(error)")
            }
            if json {
                try CommandIO.printJSON(
                    Output(file: out, format: format, conversations: report.conversations, messages: report.messages))
            } else {
                let kind = format == .kachat ? "KaChat's encrypted backup" : "Tandem's encrypted archive"
                CommandIO.write(
                    "wrote \(report.messages) message(s) of \(report.conversations) conversation(s) to \(out) (\(kind))\n"
                )
            }
        }
    }

    /// `tandem chat import FILE` (issue 48 item 2).
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Merge a chat backup into the profile: Tandem's, KaChat's or Kasia web's.",
            discussion: """
                Reads Tandem's archive (tandem chat export), KaChat's encrypted backup and its \
                older plaintext archive, and Kasia web's message export, recognized by their \
                contents; each must be of this profile's wallet. The import merges and never \
                overwrites: messages the profile holds keep their text and times (a payment is verified by \
                the chain, never by a file), contacts \
                are added for conversations that have none and never renamed, and a second import \
                of the same file changes nothing. A damaged or foreign file, or one of another \
                wallet, exits 1 and changes nothing.
                """)

        @OptionGroup var options: LocalChatOptions
        @Argument(help: ArgumentHelp("The backup file.", valueName: "file")) var file: String
        @Flag(name: .long, help: "Print what the import found and changed as JSON.") var json = false

        func run() async throws {
            let bytes = try Self.read(file)
            let messenger = try options.messenger()
            let report = try await chatCall { try await messenger.importChatBackup(bytes) }
            if json {
                try CommandIO.printJSON(report)
                return
            }
            var line =
                "imported \(file) (\(Self.name(report.format))): \(report.messagesAdded) message(s) added, "
                + "\(report.messagesUpdated) updated, \(report.messagesUnchanged) already here"
            if report.messagesDiscarded > 0 {
                line += ", \(report.messagesDiscarded) of deleted conversations left out"
            }
            if report.messagesSkipped > 0 {
                line += ", \(report.messagesSkipped) skipped (unsent or not this wallet's)"
            }
            line += "; \(report.contactsAdded) contact(s) added"
            CommandIO.write(line + "\n")
        }

        static func name(_ source: ChatBackupSource) -> String {
            switch source {
            case .tandem: "Tandem archive"
            case .kachat: "KaChat encrypted backup"
            case .kachatPlaintext: "KaChat plaintext archive"
            case .kasiaWeb: "Kasia web backup"
            }
        }

        /// The file's bytes, refused before reading when it is larger than an import reads.
        static func read(_ path: String) throws -> Data {
            let size: Int
            do {
                let attributes = try FileManager.default.attributesOfItem(atPath: path)
                size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            } catch {
                throw CLIError("\(path): no such file, or it cannot be read")
            }
            guard size <= ChatBackupFormat.maximumImportBytes else {
                throw CLIError(
                    "\(path): \(ChatBackupError.tooLarge(bytes: size, limit: ChatBackupFormat.maximumImportBytes))")
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CLIError("\(path): cannot be read")
            }
            return data
        }
    }
}
