import ArgumentParser
import Foundation
import TandemBasics

/// Where `tandem serve` and `tandem admin` read the PostgreSQL URL (issue 50 item 9): on the
/// command line (where `ps` shows it to every user of the machine), from a file, or from
/// `DATABASE_URL`; none of them is SQLite.
struct DatabaseURLOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Use PostgreSQL instead of SQLite (visible to other users in ps: prefer --database-url-file or DATABASE_URL).",
            valueName: "postgres://user:pass@host:port/db"))
    var databaseURL: String?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Read the PostgreSQL URL from this file (its first line), e.g. a container secret.", valueName: "file"))
    var databaseURLFile: String?

    /// The PostgreSQL URL: `--database-url`, else the first line of `--database-url-file`, else a
    /// non-empty `DATABASE_URL`; nil for SQLite. Every mistake names its source, never the secret.
    func resolved(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String? {
        let found: (url: String, source: String)?
        switch (databaseURL, databaseURLFile) {
        case (.some, .some): throw CLIError("give one of --database-url and --database-url-file")
        case (let url?, nil): found = (url, "--database-url")
        case (nil, let path?):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CLIError("--database-url-file \(path): cannot read the file")
            }
            let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first ?? ""
            found = (line.trimmingCharacters(in: .whitespaces), "--database-url-file \(path)")
        case (nil, nil):
            found = environment["DATABASE_URL"].flatMap { $0.isEmpty ? nil : ($0, "DATABASE_URL") }
        }
        guard let found else { return nil }
        guard found.url.hasPrefix("postgres://") || found.url.hasPrefix("postgresql://") else {
            throw CLIError("\(found.source): expected a postgres:// URL, not \(URLRedaction.redact(found.url))")
        }
        return found.url
    }
}
