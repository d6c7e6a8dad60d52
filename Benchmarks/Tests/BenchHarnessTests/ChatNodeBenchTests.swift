import Foundation
import Testing

/// `tandem-bench chat-node` (issue 24): a short run finds, for every message, the node's
/// notification and the live connection's requests, and reports both pacings.
@Suite struct ChatNodeBenchTests {
    @Test func timesEveryMessageFromItsNotificationInBothPacings() async throws {
        try Harness.requireBuilt("tandem-simnode")
        let output = try await Harness.run(
            "tandem-bench",
            [
                "chat-node", "--contacts", "20", "--messages", "3", "--warm-up", "1", "--history", "2", "--json",
            ])
        #expect(output.status == 0, "\(output.stderrText)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdoutText.utf8)) as? [String: Any])
        #expect(report["watchedAddresses"] as? Int == 21)
        #expect(report["historyRows"] as? Int == 38)
        let pacings = try #require(report["pacings"] as? [[String: Any]])
        #expect(pacings.compactMap { $0["pacing"] as? String } == ["backToBack", "idleReceiver"])
        for pacing in pacings {
            let samples = try #require(pacing["samplesMilliseconds"] as? [Double])
            #expect(samples.count == 3 && samples.allSatisfy { $0 > 0 })
            // The live connection's requests are counted per message. How many chain-walk pages a
            // message costs is the client's behaviour, not the bench's: usually its page and an
            // empty one, but a loaded CI machine gave 4 pages for 3 messages (a walk that found the
            // next block too). The client's own walk is tested in KaspaNetworkTests.
            let calls = try #require(pacing["callsPerMessage"] as? [String: Double])
            #expect(calls["getVirtualChainFromBlockV2"] ?? 0 > 0)
        }
    }
}
