import ArgumentParser
import KaspaCrypto
import KaspaTransaction
import TandemBasics

/// `tandem kaspa tx build`: select UTXOs, pay the minimum fee, sign (kasia-protocol §12).
struct KaspaTxBuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build and sign a transaction from UTXOs: a payment or handshake with --to, else a self-spend.",
        discussion:
            "One sufficient UTXO is preferred. The fee is the minimum for the signed transaction; change of 10000 sompi or less goes to the fee. A transaction over the standard mass is refused, saying which mass."
    )

    @Option(
        name: .long, help: ArgumentHelp("JSON array of UTXO entries (SDK UtxoEntry.to_dict form).", valueName: "file"))
    var utxos: String

    @OptionGroup var key: KeyFileOption

    @Option(name: .long, help: ArgumentHelp("Recipient address (first output).", valueName: "addr"))
    var to: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Amount to the recipient in sompi (a handshake sends 20000000).", valueName: "sompi"))
    var amount: UInt64?

    @Option(
        name: .long,
        help: ArgumentHelp("Transaction payload in hex (a Kasia payload or a pay: memo).", valueName: "hex"))
    var payload: String?

    @Flag(name: .long, help: "Merge up to 8 of the smallest UTXOs into one output, with no payload.")
    var compaction = false

    @Option(name: .long, help: "mainnet, testnet, simnet or devnet (the change address's network).")
    var network: KaspaNetwork = .mainnet

    @Flag(name: .long, help: "Print the signed transaction as JSON (SDK to_dict form) instead of a summary.")
    var json = false

    func validate() throws {
        if (to == nil) != (amount == nil) { throw ValidationError("--to and --amount go together") }
        if compaction, to != nil || payload != nil {
            throw ValidationError("--compaction takes no --to, --amount or --payload")
        }
    }

    func run() throws {
        let entries = try KaspaTxFileInput.decode(
            [KaspaUtxoEntry].self, from: utxos, what: "a JSON array of UTXO entries")
        let privateKey = try key.load()
        var bytes: [UInt8] = []
        if let payload {
            do { bytes = try Hex.decode(payload) } catch { throw CLIError("--payload: \(error.description)") }
        }
        let builder = KaspaTransactionBuilder(key: privateKey, network: network)
        let signed: KaspaTransaction
        do {
            if compaction {
                signed = try builder.compaction(utxos: entries)
            } else if let to, let amount {
                signed = try builder.build(
                    .init(recipient: try parseAddress(to, option: "--to"), amount: amount, payload: bytes),
                    utxos: entries)
            } else {
                signed = try builder.build(.selfSpend(payload: bytes), utxos: entries)
            }
        } catch let error as KaspaBuildError {
            throw CLIError(error.description)
        }
        if json {
            try KaspaTxFileInput.print(signed)
            return
        }
        let spent = signed.inputs.reduce(UInt64(0)) { $0 + ($1.utxo?.amount ?? 0) }
        let paid = signed.outputs.reduce(UInt64(0)) { $0 + $1.value }
        var lines = ["id: \(Hex.encode(signed.id))", "inputs: \(signed.inputs.count) (\(spent) sompi)"]
        for output in signed.outputs {
            let address =
                output.scriptPublicKey.address(network: network)?.description
                ?? Hex.encode(output.scriptPublicKey.script)
            lines.append("output: \(output.value) → \(address)")
        }
        lines.append("fee: \(spent - paid)")
        CommandIO.write(lines.joined(separator: "\n") + "\n")
    }
}
