public import ArgumentParser
import KaspaCrypto
public import KaspaTransaction
import TandemBasics

extension KaspaSigHashType: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { allTypes.map(\.description) }
}

/// `tandem kaspa tx …`: Kaspa transactions in the SDK's JSON form (issue 15).
struct KaspaTxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tx",
        abstract: "Kaspa transactions: id, sighash, mass and fee, signing and building.",
        subcommands: [ID.self, Sighash.self, Mass.self, Sign.self, KaspaTxBuildCommand.self]
    )

    struct ID: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "id",
            abstract: "Print the transaction id (signature scripts do not change it).")

        @Argument(help: "Transaction JSON file (SDK to_dict form), or - for standard input.")
        var file: String

        func run() throws {
            CommandIO.write(Hex.encode(try KaspaTxFileInput.transaction(file).id) + "\n")
        }
    }

    struct Sighash: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sighash",
            abstract: "Print the signature hash of one input.",
            discussion: "The input's UTXO entry must be in the file: the hash commits to its amount and script.")

        @Argument(help: "Transaction JSON file (SDK to_dict form), or - for standard input.")
        var file: String

        @Option(name: .long, help: "Input index.")
        var input: Int

        @Option(name: .long, help: "Sighash type: all, none, single, or one of them with -anyonecanpay.")
        var type: KaspaSigHashType = .all

        @Flag(name: .long, help: "The ECDSA digest instead of the Schnorr one.")
        var ecdsa = false

        func run() throws {
            let transaction = try KaspaTxFileInput.transaction(file)
            do {
                let hasher = try KaspaSigHasher(transaction)
                let digest =
                    ecdsa
                    ? try hasher.ecdsaHash(input: input, type: type) : try hasher.schnorrHash(input: input, type: type)
                CommandIO.write(Hex.encode(digest) + "\n")
            } catch {
                throw CLIError(error.description)
            }
        }
    }

    struct Mass: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mass",
            abstract: "Print compute mass, storage mass, mass and minimum fee, as the SDK computes them.",
            discussion:
                "For the transaction as it will be submitted: an empty signature script counts as a 66-byte Schnorr signature. The fee is null over the standard mass (100000)."
        )

        @Argument(help: "Transaction JSON file (SDK to_dict form), or - for standard input.")
        var file: String

        @Flag(name: .long, help: "Print {\"computeMass\",\"storageMass\",\"mass\",\"fee\"} as JSON.")
        var json = false

        struct Output: Encodable {
            let computeMass: UInt64
            let storageMass: UInt64?
            let mass: UInt64?
            let fee: UInt64?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(computeMass, forKey: .computeMass)
                try container.encode(storageMass, forKey: .storageMass)
                try container.encode(mass, forKey: .mass)
                try container.encode(fee, forKey: .fee)
            }

            enum CodingKeys: String, CodingKey { case computeMass, storageMass, mass, fee }
        }

        func run() throws {
            let transaction = try KaspaTxFileInput.transaction(file)
            let mass = KaspaMass(submitting: transaction)
            let output = Output(
                computeMass: mass.computeMass, storageMass: mass.storageMass, mass: mass.mass, fee: mass.fee)
            if json {
                try CommandIO.printJSON(output)
            } else {
                func text(_ value: UInt64?) -> String { value.map(String.init) ?? "none" }
                CommandIO.write(
                    "compute mass: \(output.computeMass)\nstorage mass: \(text(output.storageMass))\nmass: \(text(output.mass))\nfee: \(text(output.fee))\n"
                )
            }
        }
    }

    struct Sign: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sign",
            abstract: "Sign every input (SIGHASH_ALL) and print the signed transaction JSON.",
            discussion:
                "Inputs locked to the key's Schnorr address get a BIP-340 signature, inputs locked to its ECDSA address an ECDSA one; any other input is refused."
        )

        @Argument(help: "Transaction JSON file (SDK to_dict form), or - for standard input.")
        var file: String

        @OptionGroup var key: KeyFileOption

        func run() throws {
            let transaction = try KaspaTxFileInput.transaction(file)
            let privateKey = try key.load()
            do { try KaspaTxFileInput.print(try transaction.signed(with: privateKey)) } catch let error
                as KaspaTransactionError
            {
                throw CLIError(error.description)
            }
        }
    }
}
