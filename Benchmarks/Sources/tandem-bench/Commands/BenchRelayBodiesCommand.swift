import ArgumentParser
import BenchSupport
import Foundation

/// `tandem-bench relay-bodies` (hidden): signed `POST /kasia/transactions` bodies, one JSON
/// object a line, for load generators that cannot sign (scripts/load feeds them to wrk). Each
/// line has its own nonce, so each is a new transaction for the relay, never a resubmission.
struct BenchRelayBodiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay-bodies",
        abstract: "Print signed relay submissions, one JSON body a line (for scripts/load).",
        shouldDisplay: false
    )

    @Option(name: .long, help: "How many bodies.") var count = 100_000
    @Option(name: .long, help: "Seed byte of the signing key (1–255); other seeds give other senders.")
    var keySeed: UInt8 = 7
    @Option(name: .long, help: "Nonce of the first body.") var firstNonce: UInt64 = 1

    func validate() throws {
        guard count > 0 else { throw ValidationError("--count must be positive") }
        guard keySeed > 0 else { throw ValidationError("--key-seed must be 1–255") }
    }

    func run() throws {
        let key = try RelayBenchFixtures.key(keySeed)
        let alias = try RelayBenchFixtures.alias(Int(keySeed))
        let chunk = 10_000
        var written = 0
        while written < count {
            let size = min(chunk, count - written)
            let bodies = try RelayBenchFixtures.bodies(
                count: size, key: key, alias: alias, firstNonce: firstNonce + UInt64(written))
            var text = [UInt8]()
            for body in bodies {
                text += body
                text.append(UInt8(ascii: "\n"))
            }
            FileHandle.standardOutput.write(Data(text))
            written += size
        }
    }
}
