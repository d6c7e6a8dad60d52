import ArgumentParser
import Foundation
import TandemProfile

/// `--server URL`: the Tandem server of account, sync and relay commands. Named once, at
/// `account register` or `account login`, it is remembered in the profile (`server.json`), so
/// later commands need not repeat it; a chat-only profile remembers the first `--server` its
/// chat commands name (issue 51 item 2). `$TANDEM_SERVER` comes between `--server` and the
/// remembered one; without any, the local default.
struct ServerOption: ParsableArguments {
    static let localDefault = "http://127.0.0.1:8080"
    static let environmentVariable = "TANDEM_SERVER"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Server base URL (default: $\(ServerOption.environmentVariable), else the profile's remembered one, else \(ServerOption.localDefault)).",
            valueName: "url"))
    var server: String?

    /// The named server, else `$TANDEM_SERVER`, else the profile's remembered one, else the local
    /// default. `remember`: a profile that remembers none keeps the one named (a chat-only
    /// profile's first `--server`).
    func url(
        profile: Profile, remember: Bool = false, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> URL {
        let named: (text: String, source: String)? =
            server.map { ($0, "--server") }
            ?? environment[Self.environmentVariable].flatMap { $0.isEmpty ? nil : ($0, "$\(Self.environmentVariable)") }
        guard let named else {
            if let remembered = try openingCall({ try profile.rememberedServer() }) { return remembered }
            return try Self.parse(Self.localDefault, source: "the default")
        }
        let url = try Self.parse(named.text, source: named.source)
        if remember, try openingCall({ try profile.rememberedServer() }) == nil {
            try openingCall { try profile.rememberServer(url) }
        }
        return url
    }

    static func parse(_ text: String, source: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme, scheme == "http" || scheme == "https",
            url.host != nil
        else {
            throw CLIError("\(source) \(text): expected an http:// or https:// URL")
        }
        return url
    }
}
