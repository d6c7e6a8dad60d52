import Foundation
import Testing

/// The committed web-app query vectors are what `TaskQuery` answers today (issue 45 item 4): a
/// change to the Swift query or replay fails here until the file is written again
/// (`TANDEM_WRITE_VECTORS=1 swift test --filter WebAppQueryVectorTests`), and the Node suite then
/// holds `query.js` to it.
@Suite struct WebAppQueryVectorTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestSupport/Vectors/webapp-query-vectors.json")

    @Test func theCommittedVectorsAreWhatTaskQueryAnswers() throws {
        let made = try WebAppQueryVectors.file() + [0x0A]
        if ProcessInfo.processInfo.environment["TANDEM_WRITE_VECTORS"] == "1" {
            try Data(made).write(to: Self.file, options: .atomic)
        }
        let committed = try Data(contentsOf: Self.file)
        #expect(
            Array(committed) == made,
            "webapp-query-vectors.json is stale: write it again with TANDEM_WRITE_VECTORS=1 and run the Node suite")
    }

    @Test func theVectorsSelectSomethingAndNotEverything() throws {
        // Cases that all answer nothing (or everything) would hold query.js to little.
        let root = try JSONSerialization.jsonObject(with: Data(try WebAppQueryVectors.file())) as? [String: Any]
        let sets = try #require(root?["sets"] as? [[String: Any]])
        let cases = sets.flatMap { ($0["cases"] as? [[String: Any]]) ?? [] }
        let counts = cases.map { ($0["expected"] as? [String])?.count ?? 0 }
        #expect(cases.count >= 60)
        #expect(counts.filter { $0 == 0 }.count < cases.count / 2, "\(counts)")
        #expect(counts.filter { $0 >= 3 }.count > cases.count / 4, "\(counts)")
    }
}
