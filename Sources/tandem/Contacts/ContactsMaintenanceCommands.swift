import ArgumentParser
import Contacts
import Foundation

extension ContactsCommand {
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract: "Import KaChat's legacy contact lists once (a JSON object of UserDefaults keys).",
            discussion: """
                FILE holds {"kachat_contacts_wallet_<address>": [Contact…], "kachat_contacts": [Contact…]} as \
                KaChat's JSONEncoder wrote them. The unkeyed legacy list belongs to the profile's wallet. \
                Runs in one transaction with its done-flag: a second run changes nothing.
                """)

        @OptionGroup var profile: ProfileOptions
        @Option(name: .long, help: ArgumentHelp("The legacy contacts JSON file.", valueName: "file")) var from: String
        @Flag(name: .long, help: "Print the migration report as JSON.") var json = false

        struct Skipped: Encodable {
            let key: String
            let index: Int?
            let reason: String
        }

        struct Report: Encodable {
            let alreadyMigrated: Bool
            let entriesRead: Int
            let records: Int
            let recordsChanged: Int
            let skipped: [Skipped]
            let ignoredKeys: [String]
        }

        func run() throws {
            let context = try ContactsContext(profile)
            guard let data = FileManager.default.contents(atPath: from) else {
                throw CLIError("--from \(from): cannot read the file")
            }
            let report = try context.perform {
                try context.store.migrateLegacy(json: data, defaultWallet: context.wallet)
            }
            let output = Report(
                alreadyMigrated: report.alreadyMigrated, entriesRead: report.entriesRead, records: report.records,
                recordsChanged: report.recordsChanged,
                skipped: report.skipped.map { Skipped(key: $0.key, index: $0.index, reason: $0.reason) },
                ignoredKeys: report.ignoredKeys)
            if json {
                try CommandIO.printJSON(output)
            } else if report.alreadyMigrated {
                CommandIO.write("already migrated; nothing changed\n")
            } else {
                CommandIO.write(
                    "migrated \(report.entriesRead) contacts into \(report.records) records "
                        + "(\(report.recordsChanged) changed, \(report.skipped.count) skipped)\n")
            }
        }
    }
}

extension ContactsCommand {
    struct Purge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "purge", abstract: "Reduce tombstones older than 30 days to skeletons.")

        @OptionGroup var profile: ProfileOptions
        @Flag(name: .long, help: "Print {\"purged\": N} as JSON.") var json = false

        struct Output: Encodable { let purged: Int }

        func run() throws {
            let context = try ContactsContext(profile)
            let count = try context.perform { try context.store.purge() }
            if json { try CommandIO.printJSON(Output(purged: count)) } else { CommandIO.write("purged \(count)\n") }
        }
    }
}

extension ContactsCommand {
    struct ExportSync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export-sync",
            abstract: "Write the wallet's contact records, encrypted with a key derived from the wallet key.")

        @OptionGroup var profile: ProfileOptions
        @Argument(help: "Output file.") var file: String

        func run() throws {
            let context = try ContactsContext(profile)
            let cipher = ContactsSyncCipher(walletKey: context.walletKey)
            let bundle = try context.perform { try context.store.exportSync(using: cipher) }
            do { try bundle.serialized().write(to: URL(fileURLWithPath: file)) } catch {
                throw CLIError("FILE \(file): cannot write the file")
            }
            CommandIO.write("exported \(bundle.records.count) records\n")
        }
    }
}

extension ContactsCommand {
    struct ImportSync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-sync",
            abstract: "Merge encrypted contact records from export-sync; a tampered file changes nothing.")

        @OptionGroup var profile: ProfileOptions
        @Argument(help: "Input file.") var file: String

        func run() throws {
            let context = try ContactsContext(profile)
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CLIError("FILE \(file): cannot read the file")
            }
            let cipher = ContactsSyncCipher(walletKey: context.walletKey)
            let changed = try context.perform {
                try context.store.importSync(try ContactSyncBundle(serialized: data), using: cipher)
            }
            CommandIO.write("merged \(changed.count) changed records\n")
        }
    }
}
