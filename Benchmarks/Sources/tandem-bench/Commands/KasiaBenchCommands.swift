import ArgumentParser
import BenchSupport
import MicroBenchmarks

struct CryptoBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crypto",
        abstract: "Raw ECDH vs alias pair derivation, seal and open of a 100-byte message."
    )

    @OptionGroup var options: BenchOptions

    @Option(name: .long, help: "Operations per sample.")
    var iterations: Int = 400

    @Flag(name: .long, help: "Also time the parts (key parsing, HKDF, AEAD) alone.")
    var breakdown = false

    func run() throws {
        guard options.samples > 0, iterations > 0 else { throw CLIError("--samples and --iterations must be positive") }
        try options.print(CryptoBenchmarks.run(samples: options.samples, iterations: iterations))
        if breakdown {
            for m in try CryptoBreakdown.run(samples: options.samples) {
                CommandIO.write("\(m.name): \(Int(m.medianNanoseconds)) ns\n")
            }
        }
    }
}

struct KasiaBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kasia",
        abstract: "Payload + handshake parsing rate; alias derivation, legacy migration and watched set at N contacts."
    )

    @OptionGroup var options: BenchOptions

    @Option(name: .long, help: "Contacts for the routing benchmarks.")
    var contacts: Int = 10_000

    func run() throws {
        guard options.samples > 0, contacts > 0 else { throw CLIError("--samples and --contacts must be positive") }
        try options.print(KasiaBenchmarks.parsing(samples: options.samples))
        try options.print(KasiaBenchmarks.routing(contacts: contacts, samples: min(options.samples, 3)))
    }
}

struct KaspaTxBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kaspa",
        abstract: "Sighash + sign per input vs one raw BIP-340 sign; a handshake built from 1,000 UTXOs."
    )

    @OptionGroup var options: BenchOptions

    @Option(name: .long, help: "Signatures per sample (the multi-input and build cases run a tenth as many).")
    var iterations: Int = 200

    func run() throws {
        guard options.samples > 0, iterations > 0 else { throw CLIError("--samples and --iterations must be positive") }
        try options.print(KaspaTxBenchmarks.run(samples: options.samples, iterations: iterations))
    }
}

struct WalletBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wallet",
        abstract: "Kaspa wallet: select + build from 10,000 UTXOs, a 1,000-entry UtxosChanged applied (issue 24)."
    )

    @OptionGroup var options: BenchOptions

    func run() async throws {
        guard options.samples > 0 else { throw CLIError("--samples must be positive") }
        try options.print(WalletBenchmarks.run(samples: options.samples))
    }
}
