import ArgumentParser
import Foundation
import KaspaCrypto
import TandemProfile
import TandemWallet

/// `tandem profile list|show|use` (issue 51 item 2): the profiles of this machine, by name, and
/// the current one, as kubectl keeps contexts.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "List the profiles of this machine, show one, and choose the current one.",
        discussion: """
            A profile is named by a word (--profile alice: ~/.tandem/profiles/alice) or by a \
            directory (--profile ./alice, anything with a /). Commands use --profile, else \
            $TANDEM_PROFILE, else the one `tandem profile use` chose, else ~/.tandem/profile. Only \
            commands that make something (keys new|import, account register|login, tasks add, \
            contacts add) create a missing profile, and say so; every other command exits 1.
            """,
        subcommands: [List.self, Show.self, Use.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The profiles under ~/.tandem, the current one marked *.",
            discussion: "--json prints [{name, directory, current}].")

        @Flag(name: .long, help: "Print a JSON array.") var json = false

        struct Row: Encodable {
            let name: String
            let directory: String
            let current: Bool
        }

        func run() throws {
            let entries: [ProfileCatalog.Entry]
            do { entries = try ProfileOptions.catalog().entries() } catch { throw CLIError(error.description) }
            let rows = entries.map { Row(name: $0.name, directory: $0.directory.path, current: $0.isCurrent) }
            if json { return try CommandIO.printJSON(rows) }
            guard !rows.isEmpty else {
                return CommandIO.write("no profiles yet: `tandem keys new --profile NAME` makes one\n")
            }
            let width = rows.map(\.name.count).max() ?? 0
            for row in rows {
                let name = row.name.padding(toLength: width, withPad: " ", startingAt: 0)
                CommandIO.write("\(row.current ? "*" : " ") \(name)  \(row.directory)\n")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "What a profile holds: its wallet, network and server (never a secret; no passphrase asked).",
            discussion: """
                --json prints directory, name, source (argument, environment, current, default), \
                wallet (mnemonic, raw, protected or null), address (null when protected or \
                without a wallet), network (a Kaspa network id, or relay), server.
                """)

        @OptionGroup var profile: ProfileOptions
        @Flag(name: .long, help: "Print JSON.") var json = false

        struct Output: Encodable {
            let name: String?
            let directory: String
            let source: String
            let wallet: String?
            let address: String?
            let network: String
            let server: String?

            /// Every member written, null when absent (docs/cli-json.md).
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(name, forKey: .name)
                try container.encode(directory, forKey: .directory)
                try container.encode(source, forKey: .source)
                try container.encode(wallet, forKey: .wallet)
                try container.encode(address, forKey: .address)
                try container.encode(network, forKey: .network)
                try container.encode(server, forKey: .server)
            }

            enum CodingKeys: String, CodingKey { case name, directory, source, wallet, address, network, server }
        }

        func run() throws {
            let located = try profile.located()
            let opened = try profile.value
            let output: Output
            do {
                let settings = try opened.kaspaNetworkSettings()
                let wallet: String? = opened.isProtected ? "protected" : try opened.walletSource()?.rawValue
                let address = opened.isProtected || wallet == nil ? nil : try opened.walletKey().xOnlyPublicKey
                output = Output(
                    name: located.reference.map(\.description) ?? (located.source == .default ? "default" : nil),
                    directory: located.directory.path, source: located.source.rawValue, wallet: wallet,
                    address: address.map {
                        KaspaAddress(publicKey: $0, network: settings?.network.network ?? .mainnet).description
                    },
                    network: settings?.network.description ?? "relay",
                    server: try opened.rememberedServer()?.absoluteString)
            } catch { throw CLIError(error.description) }
            if json { return try CommandIO.printJSON(output) }
            let lines: [(String, String?)] = [
                ("profile", "\(output.name ?? output.directory) (\(output.source))"), ("directory", output.directory),
                ("wallet", output.wallet ?? "none (tandem keys new)"), ("address", output.address),
                ("network", output.network), ("server", output.server ?? "none remembered"),
            ]
            for case (let label, let value?) in lines {
                CommandIO.write(label.padding(toLength: 11, withPad: " ", startingAt: 0) + value + "\n")
            }
        }
    }

    struct Use: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make NAME (or a directory) the profile of every command that names none.",
            discussion: "$TANDEM_PROFILE and --profile still win. --default goes back to ~/.tandem/profile.")

        @Argument(help: ArgumentHelp("A profile name or directory.", valueName: "name|dir")) var name: String?
        @Flag(name: .customLong("default"), help: "Forget the current profile: use ~/.tandem/profile.")
        var useDefault = false

        func validate() throws {
            guard (name != nil) != useDefault else { throw ValidationError("give NAME or --default") }
        }

        func run() throws {
            let catalog = ProfileOptions.catalog()
            guard let name else {
                do { try catalog.use(nil) } catch { throw CLIError(error.description) }
                return CommandIO.write("using the default profile \(catalog.defaultDirectory.path)\n")
            }
            let reference: ProfileCatalog.Reference
            do { reference = try ProfileCatalog.reference(name) } catch { throw CLIError(error.description) }
            let directory = catalog.directory(of: reference)
            guard ProfileCatalog.isDirectory(directory) else {
                throw ProfileOptions.missing(.init(directory: directory, reference: reference, source: .argument))
            }
            do { try catalog.use(reference) } catch { throw CLIError(error.description) }
            CommandIO.write("using profile \(reference) (\(directory.path))\n")
        }
    }
}
