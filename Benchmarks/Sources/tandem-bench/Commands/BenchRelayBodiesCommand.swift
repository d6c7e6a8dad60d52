import ArgumentParser
import BenchSupport
import Foundation

/// `tandem-bench relay-bodies` (hidden): signed `POST /kasia/transactions` bodies, one JSON
/// object a line, for load generators that cannot sign (scripts/load feeds them to wrk). Each
/// line has its own nonce, so each is a new transaction for the relay, never a resubmission.
/// With `--senders N` the bodies take turns among N signing keys (seeds `--key-seed` onward),
/// so the server meets many senders, not one cached key.
struct BenchRelayBodiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay-bodies",
        abstract: "Print signed relay submissions, one JSON body a line (for scripts/load).",
        shouldDisplay: false
    )

    @Option(name: .long, help: "How many bodies.") var count = 100_000
    @Option(name: .long, help: "Seed byte of the first signing key (1–255); other seeds give other senders.")
    var keySeed: UInt8 = 7
    @Option(name: .long, help: "How many signing keys take turns (seeds --key-seed onward, at most 255).")
    var senders = 1
    @Option(name: .long, help: "Nonce of the first body.") var firstNonce: UInt64 = 1

    func validate() throws {
        guard count > 0 else { throw ValidationError("--count must be positive") }
        guard keySeed > 0 else { throw ValidationError("--key-seed must be 1–255") }
        guard (1...255).contains(senders) else { throw ValidationError("--senders must be 1–255") }
    }

    func run() throws {
        // Seeds keySeed, keySeed + 1, … wrapping within 1…255.
        let signers = try (0..<senders).map { offset in
            let seed = UInt8((Int(keySeed) - 1 + offset) % 255 + 1)
            return (key: try RelayBenchFixtures.key(seed), alias: try RelayBenchFixtures.alias(Int(seed)))
        }
        let encoder = JSONEncoder()
        var text = [UInt8]()
        for index in 0..<count {
            let signer = signers[index % senders]
            let submission = try RelayBenchFixtures.submission(
                key: signer.key, alias: signer.alias, nonce: firstNonce + UInt64(index))
            text += try encoder.encode(submission)
            text.append(UInt8(ascii: "\n"))
            if text.count > 1 << 20 {
                FileHandle.standardOutput.write(Data(text))
                text.removeAll(keepingCapacity: true)
            }
        }
        FileHandle.standardOutput.write(Data(text))
    }
}
