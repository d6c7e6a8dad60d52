import ArgumentParser
import Foundation
import TandemAPI
import TandemAccounts
import TandemBasics
import TandemMessaging

extension AccountCommand {
    struct Sessions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sessions",
            abstract: "List this account's live sessions (devices); the current one is marked.")

        @OptionGroup var options: AccountOptions
        @Flag(name: .long, help: "Print [{\"id\",\"current\",\"createdAt\",\"expiresAt\",\"userAgent\"}] as JSON.")
        var json = false

        struct Row: Encodable {
            let id: String
            let current: Bool
            let createdAt: String
            let expiresAt: String
            let userAgent: OrNull<String>
        }

        func run() async throws {
            let client = try options.client()
            let (listed, state) = try await accountCall { () async throws(AccountClientError) in
                (try await client.sessions(), try await client.currentSession())
            }
            let currentID: String? = if case .signedIn(let session) = state { session.session.id } else { nil }
            let rows = listed.map { session in
                Row(
                    id: session.id, current: session.id == currentID,
                    createdAt: APIJSON.formatDate(session.createdAt), expiresAt: APIJSON.formatDate(session.expiresAt),
                    userAgent: OrNull(session.userAgent))
            }
            if json { return try CommandIO.printJSON(rows) }
            let clock = options.profile.clock
            for (row, session) in zip(rows, listed) {
                let times = "since \(clock.text(session.createdAt))  until \(clock.text(session.expiresAt))"
                CommandIO.write("\(row.current ? "*" : " ") \(row.id)  \(times)  \(session.userAgent ?? "")\n")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "End one session (by the id `tandem account sessions` prints) or every other session.")

        @OptionGroup var options: AccountOptions
        @Argument(help: "Session id from `tandem account sessions`.") var session: String?
        @Flag(name: .long, help: "End every session but this one.") var others = false

        func validate() throws {
            guard (session != nil) != others else { throw ValidationError("give either a SESSION id or --others") }
        }

        func run() async throws {
            let client = try options.client()
            if others {
                try await accountCall { () async throws(AccountClientError) in try await client.revokeOtherSessions() }
                return CommandIO.write("other sessions ended\n")
            }
            let id = session ?? ""
            let listed = try await accountCall { () async throws(AccountClientError) in try await client.sessions() }
            guard let target = listed.first(where: { $0.id == id }) else {
                throw CLIError("no live session \(id) on this account (see `tandem account sessions`)")
            }
            try await accountCall { () async throws(AccountClientError) in
                try await client.revokeSession(token: target.token)
            }
            CommandIO.write("session \(id) ended\n")
        }
    }
}
