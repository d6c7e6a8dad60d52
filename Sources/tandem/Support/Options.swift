public import ArgumentParser
import Foundation
public import KasiaProtocol
public import KaspaCrypto
import TandemBasics
import TandemProfile

extension KaspaNetwork: ExpressibleByArgument {}
extension AliasScheme: ExpressibleByArgument {}

/// A command that may make the profile it names when there is none yet (issue 51 item 2): it
/// writes what the person asked for (a key, an account, a task, a contact). Every other command
/// refuses a missing profile, so a mistyped `--profile` creates nothing.
protocol CreatesProfile {}

/// `--profile NAME|DIR`, shared by every command that keeps state: which profile, and what time it is.
struct ProfileOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Profile: a name (~/.tandem/profiles/NAME) or a directory (with a /). Default: $\(Profile.environmentVariable), else `tandem profile use`, else ~/.tandem/profile.",
            valueName: "name|dir"))
    var profile: String?

    @Option(
        help: ArgumentHelp(
            "Use this time as now (YYYY-MM-DD or YYYY-MM-DDTHH:mm:ss.sssZ), for scripts and tests.", visibility: .hidden
        ))
    var now: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "File holding the passphrase of a protected profile (else $\(Self.passphraseVariable), else a terminal prompt).",
            valueName: "path"))
    var passphraseFile: String?

    @Flag(name: .long, help: "Show times in UTC instead of local time (JSON is always UTC).")
    var utc = false

    /// How this command's human lines show times (issue 51 item 7): local unless `--utc`.
    var clock: HumanTime { HumanTime(utc: utc) }

    /// The environment variable naming a passphrase file.
    static let passphraseVariable = "TANDEM_PASSPHRASE_FILE"

    func validate() throws {
        if let now { _ = try Self.instant(now, option: "--now") }
        if let profile {
            do { _ = try ProfileCatalog.reference(profile) } catch { throw CLIError("--profile \(error.description)") }
        }
    }

    /// The profile, with the system clock or, under `--now`, a clock that starts at that instant.
    /// An existing profile directory that others could read is made private first, with one line
    /// on stderr saying so (issue 50 item 9). A profile that does not exist is an error, unless
    /// the running command ``CreatesProfile``: then it is made, and said on stderr once the
    /// command is done (``ProfileCreation``).
    ///
    /// One ``Profile`` per directory serves the whole process, so a protected profile asks for
    /// its passphrase and derives its key once however often a command reads `value`.
    var value: Profile {
        get throws {
            let located = try located()
            let directory = located.directory
            if !ProfileCatalog.isDirectory(directory) {
                guard ProfileCreation.allowed else { throw Self.missing(located) }
                ProfileCreation.note(located)
            }
            var opened = Self.opened.withLock { opened in
                if let profile = opened[directory.path] { return profile }
                let profile = Profile(directory: directory, passphrase: passphraseSource(for: directory))
                opened[directory.path] = profile
                return profile
            }
            if let now, let start = try? Self.instant(now, option: "--now") {
                opened = opened.with(clock: SystemClock(startingAt: start))
            }
            Self.restrict(opened)
            return opened
        }
    }

    /// The profile directory this command names, and how it was named; nothing is created.
    func located(environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> ProfileCatalog.Located
    {
        do {
            return try Self.catalog(environment: environment).locate(argument: profile, environment: environment)
        } catch {
            throw CLIError(error.description)
        }
    }

    /// The one line for a profile that does not exist.
    static func missing(_ located: ProfileCatalog.Located) -> CLIError {
        let name = located.reference.map { "'\($0)' " } ?? ""
        let how: String
        switch located.source {
        case .argument: how = ""
        case .environment: how = " (from $\(Profile.environmentVariable))"
        case .current: how = " (the current profile: `tandem profile use`)"
        case .default: how = " (the default)"
        }
        return CLIError(
            "no profile \(name)at \(located.directory.path)\(how): `tandem profile list` shows the profiles; `tandem keys new --profile NAME` makes one"
        )
    }

    /// The catalog under `$HOME/.tandem` (else the account's home).
    static func catalog(environment: [String: String] = ProcessInfo.processInfo.environment) -> ProfileCatalog {
        let home =
            environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return ProfileCatalog(home: home)
    }

    private static let opened = Locked([String: Profile]())

    /// Where a protected profile's passphrase comes from: `--passphrase-file`, else the file
    /// `$TANDEM_PASSPHRASE_FILE` names, else a prompt when standard input is a terminal.
    func passphraseSource(for directory: URL) -> PassphraseSource {
        let file = passphraseFile
        return PassphraseSource(
            hint: "give its passphrase with --passphrase-file FILE, $\(Self.passphraseVariable) or at a terminal"
        ) {
            try Self.passphrase(file: file, prompt: "Passphrase for the profile \(directory.path): ")
        }
    }

    /// The passphrase from `file`, `$TANDEM_PASSPHRASE_FILE` or a terminal prompt; nil when there
    /// is none of them.
    static func passphrase(
        file: String?, prompt: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String? {
        if let path = file ?? environment[passphraseVariable].flatMap({ $0.isEmpty ? nil : $0 }) {
            return try readPassphraseFile(path)
        }
        guard SecretPrompt.isInteractive else { return nil }
        return try SecretPrompt.askSecret(prompt)
    }

    /// A passphrase file's text without its final line break. The passphrase never appears in
    /// an error, only the file's path.
    static func readPassphraseFile(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("cannot read the passphrase file \(path)")
        }
        guard var text = String(data: data, encoding: .utf8) else {
            throw CLIError("the passphrase file \(path) is not UTF-8 text")
        }
        if text.hasSuffix("\n") { text.removeLast() }
        if text.hasSuffix("\r") { text.removeLast() }
        guard !text.isEmpty else { throw CLIError("the passphrase file \(path) is empty") }
        return text
    }

    /// The profile directories this process has made private already.
    private static let restricted = Locked(Set<String>())

    /// Takes group and other access away from an existing profile and says what it changed; an
    /// empty directory (made for a new profile) is tightened silently. A failure here is not
    /// reported: the command's own reads and writes then say what is wrong.
    static func restrict(_ profile: Profile) {
        // `value` is read many times by one command: the directory is looked at once per process.
        guard restricted.withLock({ $0.insert(profile.directory.path).inserted }),
            let entries = try? FileManager.default.contentsOfDirectory(atPath: profile.directory.path),
            let repair = try? profile.restrictPermissions(), !repair.isEmpty, !entries.isEmpty
        else { return }
        let mode = repair.directoryMode.map { "the directory was \(String($0, radix: 8)), now 700" }
        let files = repair.files.isEmpty ? nil : "\(repair.files.count) file(s) readable by others are now 600"
        CommandIO.writeError(
            "tandem: profile \(profile.directory.path) was not private: \([mode, files].compactMap { $0 }.joined(separator: "; "))"
        )
    }

    /// Now, for a command that reads the time once: exactly the `--now` instant when one is given,
    /// so what a script passes is what its records carry however long the process took to get
    /// there (the profile's moving clock would have advanced a millisecond or more), else the
    /// system clock.
    func instantNow() -> UnixMillis {
        guard let now, let instant = try? Self.instant(now, option: "--now") else { return SystemClock().now }
        return instant
    }

    /// A day (`YYYY-MM-DD`, midnight UTC) or a full timestamp (`YYYY-MM-DDTHH:mm:ss.sssZ`).
    static func instant(_ text: String, option: String) throws -> UnixMillis {
        if let instant = UnixMillis(iso8601: text) { return instant }
        if text.utf8.count == 10, let day = UnixMillis(iso8601: text + "T00:00:00.000Z") { return day }
        throw CLIError("\(option) '\(text)' is not a date (YYYY-MM-DD or YYYY-MM-DDTHH:mm:ss.sssZ)")
    }
}

extension HumanTime {
    /// ``text(_:)`` of a Foundation date (the accounts client's), to the millisecond.
    func text(_ date: Date) -> String {
        text(UnixMillis(Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded()) ?? 0))
    }
}

/// Reads a private key from `--key-file PATH`; `-` means standard input. Keys are never taken
/// as command-line arguments, where other users could see them in the process list.
struct KeyFileOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "File holding the private key as 64 hex characters, or - for standard input.", valueName: "path"))
    var keyFile: String

    func load() throws -> PrivateKey {
        let data: Data
        if keyFile == "-" {
            data = CommandIO.readStandardInput()
        } else {
            guard let contents = FileManager.default.contents(atPath: keyFile) else {
                throw CLIError("--key-file \(keyFile): cannot read the file")
            }
            data = contents
        }
        do {
            return try Profile.privateKey(fromKeyFile: data, path: keyFile == "-" ? "(stdin)" : keyFile)
        } catch {
            throw CLIError("--key-file \(error.description)")
        }
    }
}

/// Parses an address argument, naming the option in the error.
func parseAddress(_ text: String, option: String) throws -> KaspaAddress {
    do { return try KaspaAddress(text.trimmingCharacters(in: .whitespacesAndNewlines)) } catch {
        throw CLIError("\(option) \(text): \(error.description)")
    }
}
