import ArgumentParser
import TandemBasics
import TandemWallet

/// `--max-feerate`, `--max-fee` and `--yes` of every command that pays (issue 50 item 1): what
/// one send may pay beyond the profile's limits (`tandem wallet limits`).
struct FeeLimitOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The highest fee rate to pay, in sompi per gram (default: the profile's, else 10000).",
            valueName: "sompi"))
    var maxFeerate: String?
    @Option(
        name: .long,
        help: ArgumentHelp("The highest fee to pay, in KAS (default: the profile's, else 1).", valueName: "kas"))
    var maxFee: String?
    @Flag(name: .long, help: "Pay a fee larger than the amount sent.") var yes = false

    /// The approval these options give; the wallet keeps the profile's limit for any not given.
    func approval() throws -> FeeApproval {
        FeeApproval(
            maxFeerate: try maxFeerate.map { try Self.feerate($0, option: "--max-feerate") },
            maxFee: try maxFee.map { try Self.fee($0, option: "--max-fee") }, feeAboveAmount: yes)
    }

    static func feerate(_ text: String, option: String) throws -> Double {
        guard let value = Double(text), value.isFinite, value >= 0, text.allSatisfy({ $0.isNumber || $0 == "." })
        else { throw CLIError("\(option) \(text): expected sompi per gram, a number 0 or above (e.g. 10000)") }
        return value
    }

    static func fee(_ text: String, option: String) throws -> UInt64 {
        guard let sompi = KaspaAmount.sompi(fromKAS: text) else {
            throw CLIError("\(option) \(text): expected KAS with at most 8 decimals (e.g. 0.5)")
        }
        return sompi
    }
}
