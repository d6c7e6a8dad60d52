import ArgumentParser
import KaspaCrypto
import TandemBasics

/// `tandem kaspa …`: Kaspa address tools, and the profile's link to Kaspa nodes (issue 24).
struct KaspaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kaspa",
        abstract: "Kaspa address, script and transaction tools; connect the profile to Kaspa nodes.",
        subcommands: [
            Address.self, Decode.self, KaspaScriptCommand.self, KaspaTxCommand.self, Connect.self, Status.self,
            Disconnect.self,
        ]
    )

    struct Address: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "address",
            abstract: "Print the address of a public key.",
            discussion:
                "A 32-byte x-only key gives a Schnorr (version 0) address; with --ecdsa, a 33-byte compressed key gives an ECDSA (version 1) address."
        )

        @Option(name: .long, help: ArgumentHelp("Public key in hex.", valueName: "hex"))
        var publicKey: String

        @Option(name: .long, help: "mainnet, testnet, simnet or devnet.")
        var network: KaspaNetwork = .mainnet

        @Flag(name: .long, help: "Treat the key as a 33-byte compressed ECDSA key.")
        var ecdsa = false

        func run() throws {
            let bytes: [UInt8]
            do { bytes = try Hex.decode(publicKey.trimmingCharacters(in: .whitespaces)) } catch {
                throw CLIError("--public-key: \(error.description)")
            }
            let address: KaspaAddress
            do {
                if ecdsa {
                    address = KaspaAddress(
                        ecdsaPublicKey: try PublicKey(compressedRepresentation: bytes), network: network)
                } else {
                    guard bytes.count == 32 else {
                        throw CLIError(
                            "--public-key: expected a 32-byte x-only key (64 hex characters), got \(bytes.count) bytes; use --ecdsa for a 33-byte compressed key"
                        )
                    }
                    address = KaspaAddress(publicKey: try XOnlyPublicKey(rawRepresentation: bytes), network: network)
                }
            } catch let error as KaspaKeyError {
                throw CLIError("--public-key: \(error.description)")
            }
            CommandIO.write(address.description + "\n")
        }
    }

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decode",
            abstract: "Decode an address into network, version and payload.")

        @Argument(help: "The address, e.g. kaspa:qpum…")
        var address: String

        @Flag(name: .long, help: "Print {\"network\",\"version\",\"payload\"} as JSON.")
        var json = false

        struct Output: Encodable {
            let network: KaspaNetwork
            let version: UInt8
            let payload: String
        }

        func run() throws {
            let parsed = try parseAddress(address, option: "address")
            let output = Output(
                network: parsed.network, version: parsed.version.rawValue, payload: Hex.encode(parsed.payload))
            if json {
                try CommandIO.printJSON(output)
            } else {
                CommandIO.write(
                    "network: \(output.network.rawValue)\nversion: \(output.version)\npayload: \(output.payload)\n")
            }
        }
    }
}
