import ArgumentParser
import KaspaCrypto
import KaspaTransaction
import TandemBasics

/// `tandem kaspa script ADDR`: the locking script an address stands for (issue 15).
struct KaspaScriptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "script",
        abstract: "Print the script public key of an address (Schnorr, ECDSA or P2SH).")

    @Argument(help: "The address, e.g. kaspa:qpum…")
    var address: String

    @Flag(name: .long, help: "Print {\"version\",\"script\"} as JSON.")
    var json = false

    struct Output: Encodable {
        let version: UInt16
        let script: String
    }

    func run() throws {
        let script = KaspaScriptPublicKey(address: try parseAddress(address, option: "address"))
        if json {
            try CommandIO.printJSON(Output(version: script.version, script: Hex.encode(script.script)))
        } else {
            CommandIO.write("version: \(script.version)\nscript: \(Hex.encode(script.script))\n")
        }
    }
}
