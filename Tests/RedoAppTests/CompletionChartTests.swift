import Foundation
import RedoApp
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct CompletionChartTests {
    static let weeks = [
        TaskStatistics.WeekBar(start: "2026-10-05", completions: 0),
        TaskStatistics.WeekBar(start: "2026-10-12", completions: 4),
        TaskStatistics.WeekBar(start: "2026-10-19", completions: 8),
    ]

    @Test func textBarsScaleToTheBusiestWeek() {
        let lines = CompletionChart.text(Self.weeks, width: 8).split(separator: "\n")
        #expect(lines == ["week of 2026-10-05  0", "week of 2026-10-12  ████ 4", "week of 2026-10-19  ████████ 8"])
    }

    @Test func theSVGIsWellFormedXMLWithOneBarPerWeek() throws {
        let svg = CompletionChart.svg(Self.weeks)
        let document = try XMLDocument(data: Data(svg.utf8))
        let root = try #require(document.rootElement())
        #expect(root.name == "svg")
        // FoundationXML's attribute(forName:) misses attributes of elements in a default
        // namespace; the attribute list has them.
        func attribute(_ element: XMLElement, _ name: String) -> String? {
            element.attributes?.first { $0.name == name }?.stringValue
        }
        let bars = (root.children ?? []).compactMap { $0 as? XMLElement }.filter {
            $0.localName == "rect" && attribute($0, "fill") == "#3b7dd8"
        }
        #expect(bars.count == 3)
        let heights = bars.compactMap { attribute($0, "height") }
        #expect(heights == ["0", "100", "200"])
    }
}
