import ArgumentParser
import Foundation
import TandemAPI
import TandemAccounts
import TandemBasics
import TandemNIOTransport

/// `tandem account …`: register, sign in and out, show the session (issue 4, seed 003); list and
/// end sessions, change the password or name, delete the account (issue 13).
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Register, sign in and out, manage sessions, password and account.",
        subcommands: [
            Register.self, Login.self, Logout.self, Whoami.self, Sessions.self, Revoke.self, Passwd.self, Update.self,
            Delete.self,
        ]
    )
}

/// `--server URL` and `--profile DIR`, shared by every account command.
struct AccountOptions: ParsableArguments {
    @OptionGroup var server: ServerOption
    @OptionGroup var profile: ProfileOptions

    func client() throws -> AccountClient {
        let profile = try profile.value
        return AccountClient(server: try server.url(profile: profile), profile: profile, transport: transport)
    }

    /// The request transport of every account and sync call: AsyncHTTPClient (issue 12
    /// "Figures": URLSession's libcurl was most of a sync's client CPU on Linux).
    var transport: any HTTPTransport {
        HTTPClientTransport(userAgent: "tandem/\(Tandem.configuration.version)")
    }
}

/// The password from stdin: the first line, without its line ending. Passwords never go on the
/// command line, where other users could see them.
func readPasswordFromStandardInput(passwordStdin: Bool) throws -> String {
    guard passwordStdin else { throw CLIError("--password-stdin is required: pass the password on standard input") }
    let text = try CommandIO.readStandardInputText()
    let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
    let password = line.hasSuffix("\r") ? String(line.dropLast()) : line
    guard !password.isEmpty else { throw CLIError("--password-stdin: standard input holds no password") }
    return password
}

/// Runs an account call, turning client errors into one-line CLI errors.
func accountCall<T>(_ body: () async throws(AccountClientError) -> T) async throws -> T {
    do { return try await body() } catch { throw CLIError(error.description) }
}

extension AccountCommand {
    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "register",
            abstract: "Create an account and sign in (the session is kept in the profile).")

        @OptionGroup var options: AccountOptions
        @Option(name: .long, help: "Username: 3–30 of A-Z a-z 0-9 _ . (case-insensitive).") var username: String
        @Option(name: .long, help: "E-mail address.") var email: String
        @Option(name: .long, help: "Display name.") var name: String
        @Flag(name: .long, help: "Read the password (8–128 characters) from standard input.") var passwordStdin = false
        @Flag(name: .long, help: "Print the user as JSON.") var json = false

        func run() async throws {
            let password = try readPasswordFromStandardInput(passwordStdin: passwordStdin)
            let client = try options.client()
            let user = try await accountCall { () async throws(AccountClientError) in
                try await client.signUp(username: username, email: email, name: name, password: password)
            }
            try printUser(user, json: json, verb: "registered and signed in")
        }
    }

    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "login",
            abstract: "Sign in with username (or e-mail) and password; later commands reuse the session.")

        @OptionGroup var options: AccountOptions
        @Option(name: .long, help: "Username (case-insensitive).") var username: String?
        @Option(name: .long, help: "E-mail address, instead of the username.") var email: String?
        @Flag(name: .long, help: "Read the password from standard input.") var passwordStdin = false
        @Flag(name: .long, help: "Print the user as JSON.") var json = false

        func validate() throws {
            guard (username == nil) != (email == nil) else { throw ValidationError("give --username or --email") }
        }

        func run() async throws {
            let password = try readPasswordFromStandardInput(passwordStdin: passwordStdin)
            let client = try options.client()
            let user = try await accountCall { () async throws(AccountClientError) in
                if let email { return try await client.signIn(email: email, password: password) }
                return try await client.signIn(username: username ?? "", password: password)
            }
            try printUser(user, json: json, verb: "signed in")
        }
    }

    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "logout",
            abstract: "Sign out: end the session on the server and forget the cookie.")

        @OptionGroup var options: AccountOptions

        func run() async throws {
            let client = try options.client()
            try await accountCall { () async throws(AccountClientError) in try await client.signOut() }
            CommandIO.write("signed out\n")
        }
    }

    struct Whoami: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "whoami",
            abstract: "Validate the stored session with the server and show who is signed in.",
            discussion:
                "Exits 0 when signed in; prints the reason and exits 1 when signed out (also on a legacy idAlias session)."
        )

        @OptionGroup var options: AccountOptions
        @Flag(name: .long, help: "Print {\"signedIn\",\"user\",\"expiresAt\",\"reason\"} as JSON.") var json = false

        /// Every member written, null when it does not apply (docs/cli-json.md).
        struct Output: Encodable {
            let signedIn: Bool
            let user: OrNull<AuthUser>
            let expiresAt: OrNull<String>
            let reason: OrNull<String>

            init(signedIn: Bool, user: AuthUser?, expiresAt: String?, reason: String?) {
                self.signedIn = signedIn
                self.user = OrNull(user)
                self.expiresAt = OrNull(expiresAt)
                self.reason = OrNull(reason)
            }
        }

        func run() async throws {
            let client = try options.client()
            let state = try await accountCall { () async throws(AccountClientError) in
                try await client.validateOnLaunch()
            }
            switch state {
            case .signedIn(let session):
                if json {
                    try CommandIO.printJSON(
                        Output(
                            signedIn: true, user: session.user,
                            expiresAt: APIJSON.formatDate(session.session.expiresAt), reason: nil))
                } else {
                    CommandIO.write(
                        "\(session.user.username ?? session.user.email) (\(session.user.name)), session until \(options.profile.clock.text(session.session.expiresAt))\n"
                    )
                }
            case .signedOut(let reason):
                if json {
                    try CommandIO.printJSON(
                        Output(signedIn: false, user: nil, expiresAt: nil, reason: reason.message))
                    throw ExitCode(1)
                }
                throw CLIError(reason.message)
            }
        }
    }
}

func printUser(_ user: AuthUser, json: Bool, verb: String) throws {
    if json {
        try CommandIO.printJSON(user)
    } else {
        CommandIO.write("\(verb) as \(user.username ?? user.email) (id \(user.id))\n")
    }
}
