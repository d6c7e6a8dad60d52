import CanonicalJSON
import RedoProtocol
import TandemTesting
import Testing

@testable import RedoProtocol

/// Replay on the task-by-task layout (issue 49 item 1) gives, byte for byte, what replay gave
/// before it. The digest below was taken from `tandem redo replay --json` built at `5bdc929`,
/// whose facts were arrays in total order, over the same 1,000 seeded logs.
@Suite("Replay against the design before (issue 49 item 1)")
struct ReplayGoldenTests {
    /// SHA-256 of the 1,000 outputs of `tandem redo replay --json` at `5bdc929`, each followed by
    /// one newline, in seed order.
    static let before = "sha256:54c27775206b7f25603467f6b52412b78c96e51b8f709704b48498cb2ae68691"

    /// The nodes of log `seed`: ``RandomReplayLog`` with some nodes twice.
    static func log(seed: Int) throws -> [RedoNode] {
        var random = SeededRandom(seed: UInt64(77_001 + seed))
        var nodes = try RandomReplayLog.make(using: &random)
        nodes += nodes.filter { _ in Int.random(in: 0..<8, using: &random) == 0 }
        return nodes
    }

    /// What `tandem redo replay --json` prints for `result`.
    static func printed(_ result: ReplayResult) throws -> [UInt8] {
        try CanonicalJSON.canonicalBytes(of: result.jsonValue) + [0x0A]
    }

    @Test("1,000 seeded logs replay, from scratch and from facts added in total order, to the bytes of before")
    func sameBytesAsBefore() throws {
        var scratch: [UInt8] = []
        var facts: [UInt8] = []
        for seed in 0..<1_000 {
            let nodes = try Self.log(seed: seed)
            scratch += try Self.printed(Replayer.replay(nodes))
            var added = ReplayFacts()
            for node in nodes.sorted(by: RedoNode.precedes) { added.add([node]) }
            facts += try Self.printed(Replayer.replay(added))
        }
        #expect(ContentAddress.id(ofCanonicalBody: scratch).description == Self.before)
        #expect(facts == scratch)
    }
}
