import Foundation
import TestSupport
import Testing

/// The committed web-app vectors are what Swift answers today (issue 45 item 4): a change to the
/// query, the replay, the statistics or the preset rules fails here until the files are written
/// again (`TANDEM_WRITE_VECTORS=1 swift test --filter WebAppQueryVectorTests`), and the Node
/// suite (`Tests/WebApp`) then holds the web app's modules to them.
@Suite struct WebAppQueryVectorTests {
    static func check(_ made: [UInt8], _ name: String) throws {
        #expect(
            try Vectors.committedFile(name, holds: made),
            "\(name) is stale: write it again with TANDEM_WRITE_VECTORS=1 and run the Node suite")
    }

    @Test func theCommittedQueryAndStatisticsVectorsAreWhatSwiftAnswers() throws {
        try Self.check(try WebAppQueryVectors.file(), "webapp-query-vectors.json")
    }

    @Test func theCommittedPresetVectorsAreWhatSwiftAnswers() throws {
        try Self.check(try WebAppPresetVectors.file(), "webapp-preset-vectors.json")
    }

    @Test func theVectorsSelectSomethingAndNotEverything() throws {
        // Cases that all answer nothing (or everything) would hold query.js to little.
        let root = try JSONSerialization.jsonObject(with: Data(try WebAppQueryVectors.file())) as? [String: Any]
        let sets = try #require(root?["sets"] as? [[String: Any]])
        let cases = sets.flatMap { ($0["cases"] as? [[String: Any]]) ?? [] }
        let counts = cases.map { ($0["expected"] as? [String])?.count ?? 0 }
        #expect(cases.count >= 100)
        #expect(counts.filter { $0 == 0 }.count < cases.count / 2, "\(counts)")
        #expect(counts.filter { $0 >= 3 }.count >= cases.count / 5, "\(counts)")
        let presets = try JSONSerialization.jsonObject(with: Data(try WebAppPresetVectors.file())) as? [String: Any]
        let kept = try #require(presets?["names"] as? [[String: Any]]).filter { $0["kept"] is String }.count
        let accepted = try #require(presets?["queries"] as? [[String: Any]]).filter { $0["query"] is [String: Any] }
            .count
        #expect(kept > 5 && accepted > 5, "names kept \(kept), queries accepted \(accepted)")
    }
}
