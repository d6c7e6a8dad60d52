public import ArgumentParser
import Foundation
public import KasiaProtocol
public import KaspaCrypto
import TandemClient

extension KaspaNetwork: ExpressibleByArgument {}
extension AliasScheme: ExpressibleByArgument {}

/// `--profile DIR`, shared by every command that keeps state.
struct ProfileOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Profile directory (wallet key, session, local stores).", valueName: "dir"))
    var profile: String = "./tandem-profile"

    var value: Profile { Profile(directory: URL(fileURLWithPath: profile)) }
}

/// Reads a private key from `--key-file PATH`; `-` means standard input. Keys are never taken
/// as command-line arguments, where other users could see them in the process list.
struct KeyFileOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
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
