import ArgumentParser
import KaspaCrypto
import TandemBasics
import TandemClient

/// `tandem keys …`: the profile's wallet key.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Create or show the wallet key kept in a profile directory; list the account's device keys.",
        subcommands: [New.self, Show.self, Devices.self]
    )

    struct Output: Encodable {
        let address: String
        let publicKey: String
    }

    static func describe(_ key: PrivateKey, network: KaspaNetwork, json: Bool) throws {
        let output = Output(
            address: KaspaAddress(publicKey: key.xOnlyPublicKey, network: network).description,
            publicKey: Hex.encode(key.xOnlyPublicKey.rawRepresentation)
        )
        if json {
            try CommandIO.printJSON(output)
        } else {
            CommandIO.write("address: \(output.address)\npublicKey: \(output.publicKey)\n")
        }
    }

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "new",
            abstract: "Create a wallet key (mode 0600) in the profile; refuses to overwrite one."
        )

        @OptionGroup var profile: ProfileOptions
        @Option(name: .long, help: "Network of the printed address.") var network: KaspaNetwork = .mainnet
        @Flag(name: .long, help: "Print {\"address\",\"publicKey\"} as JSON.") var json = false

        func run() throws {
            do {
                try KeysCommand.describe(try profile.value.createWalletKey(), network: network, json: json)
            } catch let error as ProfileError {
                throw CLIError(error.description)
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show the profile's address and x-only public key.")

        @OptionGroup var profile: ProfileOptions
        @Option(name: .long, help: "Network of the printed address.") var network: KaspaNetwork = .mainnet
        @Flag(name: .long, help: "Print {\"address\",\"publicKey\"} as JSON.") var json = false

        func run() throws {
            do {
                try KeysCommand.describe(try profile.value.walletKey(), network: network, json: json)
            } catch let error as ProfileError {
                throw CLIError(error.description)
            }
        }
    }
}
