import ArgumentParser
import Foundation
import TandemAPI
import TandemAccounts
import TandemMessaging
import TandemProfile
import TandemSync

extension KeysCommand {
    struct Devices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "devices",
            abstract: "List the device keys bound to the signed-in account (the keys that sign tasks).")

        @OptionGroup var options: AccountOptions
        @Flag(name: .long, help: "Print [{\"publicKey\",\"createdAt\",\"revokedAt\",\"thisDevice\"}] as JSON.")
        var json = false

        struct Row: Encodable {
            let publicKey: String
            let createdAt: String
            let revokedAt: String?
            let thisDevice: Bool
        }

        func run() async throws {
            let client = try options.client()
            let keys = try await accountCall { () async throws(AccountClientError) in try await client.deviceKeys() }
            let mine = try withTaskErrors { try options.profile.value.openTasks().identity.key.publicKey.description }
            let rows = keys.map {
                Row(
                    publicKey: $0.publicKey, createdAt: APIJSON.formatDate($0.createdAt),
                    revokedAt: $0.revokedAt.map(APIJSON.formatDate), thisDevice: $0.publicKey == mine)
            }
            if json { return try CommandIO.printJSON(rows) }
            if rows.isEmpty { return CommandIO.write("no device keys yet (run tandem sync)\n") }
            for row in rows {
                let marks = (row.thisDevice ? " (this device)" : "") + (row.revokedAt.map { " revoked \($0)" } ?? "")
                CommandIO.write("\(row.publicKey)  since \(row.createdAt)\(marks)\n")
            }
        }
    }
}
