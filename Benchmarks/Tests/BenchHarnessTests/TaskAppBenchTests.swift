import Foundation
import Testing

@Suite struct TaskAppBenchTests {
    @Test func benchTaskAppReportsTheQueryAndStatisticsSuitesAsJSON() async throws {
        let output = try await Harness.run("tandem-bench", ["task-app", "--samples", "1", "--json"])
        #expect(output.status == 0, "\(output.stderrText)")
        let object = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
        let reports = try #require(object["reports"] as? [[String: Any]])
        #expect(
            reports.compactMap { $0["title"] as? String } == [
                "Task queries over 10000 tasks", "Task statistics over 100000 completions",
            ])
        for report in reports {
            let rows = try #require(report["rows"] as? [[String: Any]])
            #expect(rows.count >= 2)
            #expect(rows.allSatisfy { ($0["ratioToBaseline"] as? Double ?? 0) > 0 })
        }
    }
}
