import ArgumentParser
import Foundation
import Logging
import TandemServer
import TandemServerStore

/// `tandem admin …`: server maintenance.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Server maintenance on the server's own database.",
        subcommands: [ImportBetterAuth.self]
    )

    struct ImportBetterAuth: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-betterauth",
            abstract: "Import users and credential accounts exported from a BetterAuth database.",
            discussion: """
                FILE is one JSON object with BetterAuth's `user` and `account` rows (camelCase keys, ISO-8601 dates): \
                {"users":[{"id","name","email","emailVerified","image","createdAt","updatedAt","username","displayUsername"}], \
                "accounts":[{"id","accountId","providerId","userId","password","createdAt","updatedAt"}]}. \
                Only providerId "credential" accounts with a scrypt "salt:key" password are imported; their passwords keep \
                working. Users that already exist or clash are skipped and listed.
                """
        )

        @Argument(help: ArgumentHelp("The export file.", valueName: "file.json")) var file: String
        @Option(name: .long, help: ArgumentHelp("Server data directory (SQLite).", valueName: "dir")) var dataDir =
            "./tandem-data"
        @OptionGroup var database: DatabaseURLOptions
        @Flag(name: .long, help: "Print the report as JSON.") var json = false

        func run() async throws {
            let databaseURL = try database.resolved()
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CLIError("\(file): cannot read the file")
            }
            let export: BetterAuthExport
            do { export = try BetterAuthExport.decode(data) } catch { throw CLIError("\(file): \(error.description)") }
            var logger = Logger(label: "tandem.admin")
            logger.logLevel = .error
            let backend: StorageBackend =
                databaseURL.map { .postgres(url: $0) } ?? .sqlite(dataDirectory: URL(fileURLWithPath: dataDir))
            let store: any ServerStore
            do { store = try await StoreFactory.open(backend, logger: logger) } catch {
                throw CLIError(databaseURL == nil ? "\(dataDir): \(error)" : "the PostgreSQL database: \(error)")
            }
            let report = try await store.withServices { try await export.importUsers(into: store) }
            if json {
                try CommandIO.printJSON(report)
            } else {
                CommandIO.write("imported \(report.imported.count) user(s), skipped \(report.skipped.count)\n")
                for skipped in report.skipped { CommandIO.write("skipped \(skipped.userId): \(skipped.reason)\n") }
            }
        }
    }
}
