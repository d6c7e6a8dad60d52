import CommandLineContract
import RedoApp

/// The commands people run most, recognised from their words before ArgumentParser builds the
/// whole command tree (issue 49 item 2). Building it and parsing one command's option groups
/// costs more than a `tasks list` of 1,000 tasks; a quick form skips both. Only exact, plain
/// forms are quick: any other word, a repeated option, a value that looks like an option, an
/// `--option=value` or `--help` goes the full way, so every message and default stays
/// ArgumentParser's.
enum QuickCommand {
    /// `tasks list` with no query flag: [--profile NAME|DIR] [--now TIME] [--passphrase-file PATH]
    /// [--utc] [--json].
    case tasksList(QuickProfile, json: Bool)

    /// The quick command `arguments` (without the program's name) spell, or nil.
    static func recognize(_ arguments: [String]) -> QuickCommand? {
        guard arguments.count >= 2, arguments[0] == "tasks", arguments[1] == "list" else { return nil }
        var profile = QuickProfile()
        var json = false
        var words = arguments.dropFirst(2)
        while let word = words.popFirst() {
            switch word {
            case "--json":
                guard !json else { return nil }
                json = true
            case "--utc":
                guard !profile.utc else { return nil }
                profile.utc = true
            case "--profile", "--now", "--passphrase-file":
                let field: WritableKeyPath<QuickProfile, String?> =
                    word == "--profile" ? \.profile : word == "--now" ? \.now : \.passphraseFile
                guard profile[keyPath: field] == nil, let value = words.popFirst(), !value.hasPrefix("-") else {
                    return nil
                }
                profile[keyPath: field] = value
            default: return nil
            }
        }
        return .tasksList(profile, json: json)
    }

    /// Runs the command under the CLI's error contract and ends the process. Returns, having run
    /// nothing, only when its options do not validate: the full parse then says why in its words.
    func run() {
        switch self {
        case .tasksList(let quick, let json):
            let options = quick.options
            do { try options.validate() } catch { return }
            CommandLineContract.run(Tandem.self, program: "tandem", describe: Tandem.describe) {
                try TasksCommand.List.list(options: options, overrides: TaskQueryOverrides(), preset: nil, json: json)
            }
        }
    }
}

/// The profile options of a quick command, as words; ``options`` is what ArgumentParser would
/// have parsed from them.
struct QuickProfile {
    var profile: String?
    var now: String?
    var passphraseFile: String?
    var utc = false

    var options: ProfileOptions {
        var options = ProfileOptions()
        options.profile = profile
        options.now = now
        options.passphraseFile = passphraseFile
        options.utc = utc
        return options
    }
}
