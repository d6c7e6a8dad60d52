import Foundation
import Testing

@Suite struct TimelineBenchTests {
    @Test func benchTimelinePrintsTheSpecifiedJSONAndMeetsTheTargets() async throws {
        let output = try await Harness.run("tandem-bench", ["timeline", "--messages", "300", "--seed", "3", "--json"])
        #expect(output.status == 0)
        let line = output.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.hasPrefix("{\"messages\":300,\"prepends\":"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "messages", "prepends", "anchorDeltaMedian", "anchorDeltaP99", "unexpectedScrolls",
                "overlappingRequests", "invariantViolations",
            ])
        #expect((object["prepends"] as? Int ?? 0) > 0)
        #expect(object["anchorDeltaMedian"] as? Double == 0)
        #expect((object["anchorDeltaP99"] as? Double ?? .infinity) <= 1)
        #expect(object["unexpectedScrolls"] as? Int == 0)
        #expect(object["overlappingRequests"] as? Int == 0)
        #expect(object["invariantViolations"] as? Int == 0)
    }

    @Test func benchTimelineRejectsATooSmallFixture() async throws {
        let output = try await Harness.run("tandem-bench", ["timeline", "--messages", "5", "--json"])
        #expect(output.status == 1)
        #expect(output.stderrText.hasPrefix("tandem-bench: --messages"))
        #expect(output.stdout.isEmpty)
    }
}

@Suite struct PagingBenchTests {
    @Test func benchPagingReportsKeysetAndOffsetForEveryDepthAsJSON() async throws {
        let output = try await Harness.run("tandem-bench", ["paging", "--messages", "2000", "--json"])
        #expect(output.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
        #expect(object["messages"] as? Int == 2_000)
        let depths = try #require(object["depths"] as? [[String: Any]])
        #expect(depths.first?["depth"] as? Int == 0)
        #expect(depths.last?["depth"] as? Int == 2_000 - 50 - 2)
        #expect(depths.allSatisfy { $0["keyset"] is [String: Any] && $0["offset"] is [String: Any] })
    }

    @Test func benchPagingRejectsAMissingDirectory() async throws {
        let output = try await Harness.run(
            "tandem-bench",
            [
                "paging", "--messages", "2000", "--directory", "/nonexistent/chat-bench",
            ])
        #expect(output.status == 1)
        #expect(output.stderrText.hasPrefix("tandem-bench: --directory"))
    }
}
