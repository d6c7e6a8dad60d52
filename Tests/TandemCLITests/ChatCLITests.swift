import Foundation
import Testing

@Suite struct ChatCLITests {
    @Test func benchTimelinePrintsTheSpecifiedJSONAndMeetsTheTargets() throws {
        let output = try TandemProcess.run(["bench", "timeline", "--messages", "300", "--seed", "3", "--json"])
        #expect(output.status == 0)
        let line = output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.hasPrefix("{\"messages\":300,\"prepends\":"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(Set(object.keys) == [
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

    @Test func benchTimelineRejectsATooSmallFixture() throws {
        let output = try TandemProcess.run(["bench", "timeline", "--messages", "5", "--json"])
        #expect(output.status == 1)
        #expect(output.stderr.hasPrefix("tandem: --messages"))
        #expect(output.stdout.isEmpty)
    }
}
