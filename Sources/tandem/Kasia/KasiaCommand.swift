import ArgumentParser
import KasiaProtocol
import KaspaCrypto
import TandemBasics

/// `tandem kasia …`: the Kasia messaging protocol tools.
struct KasiaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kasia",
        abstract: "Kasia messaging: deterministic aliases and the message cipher.",
        subcommands: [Alias.self, Seal.self, Open.self, Payload.self, Handshake.self, Routing.self]
    )
}

extension KasiaCommand {
    struct Alias: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "alias",
            abstract: "Derive the deterministic alias pair for a conversation with a peer.",
            discussion: "myAlias is the alias you watch (the peer sends with it); theirAlias is the one you send with."
        )

        @OptionGroup var key: KeyFileOption

        @Option(name: .long, help: ArgumentHelp("The peer's Schnorr (version 0) address.", valueName: "address"))
        var peer: String

        @Option(name: .long, help: "chat (default, what KaChat uses) or dm_alias_v1.")
        var scheme: AliasScheme = .chat

        @Flag(name: .long, help: "Print {\"myAlias\",\"theirAlias\"} as JSON.")
        var json = false

        func run() throws {
            let privateKey = try key.load()
            let peerAddress = try parseAddress(peer, option: "--peer")
            let pair: AliasPair
            do { pair = try AliasPair(privateKey: privateKey, peer: peerAddress, scheme: scheme) } catch {
                throw CLIError("--peer \(peer): \(error.description)")
            }
            if json {
                try CommandIO.printJSON(pair)
            } else {
                CommandIO.write("myAlias: \(pair.myAlias)\ntheirAlias: \(pair.theirAlias)\n")
            }
        }
    }
}

extension KasiaCommand {
    struct Seal: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "seal",
            abstract: "Encrypt standard input (UTF-8, taken exactly) to an address; prints the sealed hex."
        )

        @Option(name: .long, help: ArgumentHelp("Recipient address (version 0 or 1).", valueName: "address"))
        var to: String

        func run() throws {
            let recipient = try parseAddress(to, option: "--to")
            let plaintext = try CommandIO.readStandardInputText()
            do {
                CommandIO.write(Hex.encode(try KasiaCipher.seal(plaintext, to: recipient)) + "\n")
            } catch {
                throw CLIError("--to \(to): \(error.description)")
            }
        }
    }
}

extension KasiaCommand {
    struct Open: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "open",
            abstract: "Decrypt a sealed message; prints the plaintext exactly, with no newline added."
        )

        @OptionGroup var key: KeyFileOption

        @Argument(help: "The sealed message in hex.")
        var sealedHex: String

        func run() throws {
            let privateKey = try key.load()
            let sealed: [UInt8]
            do { sealed = try Hex.decode(sealedHex.trimmingCharacters(in: .whitespacesAndNewlines)) } catch {
                throw CLIError("sealed message: \(error.description)")
            }
            do {
                CommandIO.write(try KasiaCipher.open(sealed, using: privateKey))
            } catch {
                throw CLIError("sealed message: \(error.description)")
            }
        }
    }
}
