import ArgumentParser
import Foundation
import TandemAPI
import TandemAccounts
import TandemBasics
import TandemMessaging
import TandemProfile
import TandemSync

extension KeysCommand {
    struct Devices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "devices",
            abstract: "List the device keys bound to the signed-in account (the keys that sign tasks).")

        @OptionGroup var options: AccountOptions
        @Flag(name: .long, help: "Print [{\"publicKey\",\"createdAt\",\"revokedAt\",\"current\"}] as JSON.")
        var json = false

        /// `current` marks this device's key; `thisDevice`, its name before issue 51, is kept
        /// for one release.
        struct Row: Encodable {
            let publicKey: String
            let createdAt: String
            let revokedAt: OrNull<String>
            let current: Bool
            let thisDevice: Bool
        }

        func run() async throws {
            let client = try options.client()
            let keys = try await accountCall { () async throws(AccountClientError) in try await client.deviceKeys() }
            let mine = try withTaskErrors { try options.profile.value.openTasks().identity.key.publicKey.description }
            let rows = keys.map {
                Row(
                    publicKey: $0.publicKey, createdAt: APIJSON.formatDate($0.createdAt),
                    revokedAt: OrNull($0.revokedAt.map(APIJSON.formatDate)), current: $0.publicKey == mine,
                    thisDevice: $0.publicKey == mine)
            }
            if json { return try CommandIO.printJSON(rows) }
            if rows.isEmpty { return CommandIO.write("no device keys yet (run tandem sync)\n") }
            let clock = options.profile.clock
            for (row, key) in zip(rows, keys) {
                let revoked = key.revokedAt.map { " revoked \(clock.text($0))" } ?? ""
                CommandIO.write(
                    "\(row.publicKey)  since \(clock.text(key.createdAt))\(row.current ? " (this device)" : "")\(revoked)\n"
                )
            }
        }
    }
}
