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

    @Test("1,000 seeded logs replay to the bytes of before: from scratch, added one by one, in batches and rebuilt")
    func sameBytesAsBefore() throws {
        var scratch: [UInt8] = []
        var oneByOne: [UInt8] = []
        var batched: [UInt8] = []
        var rebuilt: [UInt8] = []
        var rebuilds = 0
        for seed in 0..<1_000 {
            let nodes = try Self.log(seed: seed)
            scratch += try Self.printed(Replayer.replay(nodes))
            let sorted = nodes.sorted(by: RedoNode.precedes)
            var added = ReplayFacts()
            for node in sorted { added.add([node]) }
            oneByOne += try Self.printed(Replayer.replay(added))
            // In total order, in batches of random sizes: every batch in place, parents missing
            // from one batch filled in when a later one brings them.
            var random = SeededRandom(seed: UInt64(78_001 + seed))
            batched += try Self.printed(Replayer.replay(ReplayFactsTests.added(sorted, using: &random)))
            let shuffled = ReplayFactsTests.added(nodes.shuffled(using: &random), using: &random)
            rebuilds += shuffled.rebuilds
            rebuilt += try Self.printed(Replayer.replay(shuffled))
        }
        #expect(ContentAddress.id(ofCanonicalBody: scratch).description == Self.before)
        #expect(oneByOne == scratch)
        #expect(batched == scratch)
        #expect(rebuilt == scratch)
        #expect(rebuilds > 500, "the shuffled batches must take the rebuilding path")
    }
}
