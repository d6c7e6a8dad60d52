import ArgumentParser
import Foundation
import TandemProfile

/// `--server URL`: the Tandem server of account, sync and relay commands. Named once, at
/// `account register` or `account login`, it is remembered in the profile (`server.json`), so
/// later commands need not repeat it; without either, the local default.
struct ServerOption: ParsableArguments {
    static let localDefault = "http://127.0.0.1:8080"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Server base URL (default: the one the profile signed in to, else \(ServerOption.localDefault)).",
            valueName: "url"))
    var server: String?

    /// The named server, else the profile's remembered one, else the local default.
    func url(profile: Profile) throws -> URL {
        let text: String
        if let server {
            text = server
        } else if let remembered = try openingCall({ try profile.rememberedServer() }) {
            return remembered
        } else {
            text = Self.localDefault
        }
        guard let url = URL(string: text), let scheme = url.scheme, scheme == "http" || scheme == "https",
            url.host != nil
        else {
            throw CLIError("--server \(text): expected an http:// or https:// URL")
        }
        return url
    }
}
