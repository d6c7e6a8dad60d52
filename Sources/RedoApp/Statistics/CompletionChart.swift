/// The last eight weeks of completions as a chart: text bars for a terminal and an SVG a person
/// can open (issue 27 item 4).
public enum CompletionChart {
    /// One line per week: its first day, a bar of `█` scaled to `width` columns, the count.
    public static func text(_ weeks: [TaskStatistics.WeekBar], width: Int = 40) -> String {
        let most = max(1, weeks.map(\.completions).max() ?? 0)
        return weeks.map { week in
            let length = week.completions == 0 ? 0 : max(1, week.completions * width / most)
            return "week of \(week.start)  " + String(repeating: "█", count: length)
                + (length > 0 ? " " : "") + String(week.completions)
        }.joined(separator: "\n") + "\n"
    }

    /// A standalone SVG document: one labelled bar per week, with a title and the counts.
    public static func svg(_ weeks: [TaskStatistics.WeekBar]) -> String {
        let barWidth = 60
        let gap = 20
        let chartHeight = 200
        let left = 40
        let top = 40
        let width = left + weeks.count * (barWidth + gap) + gap
        let height = top + chartHeight + 60
        let most = max(1, weeks.map(\.completions).max() ?? 0)
        var parts = [
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(width)" height="\##(height)" "##
                + ##"viewBox="0 0 \##(width) \##(height)" role="img" aria-labelledby="title">"##,
            ##"<title id="title">Completions per week, last \##(weeks.count) weeks</title>"##,
            ##"<rect width="100%" height="100%" fill="#ffffff"/>"##,
            ##"<text x="\##(left)" y="24" font-family="sans-serif" font-size="16" fill="#222222">"##
                + "Completions per week</text>",
            ##"<line x1="\##(left)" y1="\##(top + chartHeight)" x2="\##(width - gap / 2)" y2="\##(top + chartHeight)" "##
                + ##"stroke="#888888"/>"##,
        ]
        for (index, week) in weeks.enumerated() {
            let x = left + gap / 2 + index * (barWidth + gap)
            let barHeight = week.completions * chartHeight / most
            let y = top + chartHeight - barHeight
            parts.append(
                ##"<rect x="\##(x)" y="\##(y)" width="\##(barWidth)" height="\##(barHeight)" fill="#3b7dd8">"##
                    + "<title>week of \(week.start): \(week.completions)</title></rect>")
            parts.append(
                ##"<text x="\##(x + barWidth / 2)" y="\##(y - 6)" text-anchor="middle" font-family="sans-serif" "##
                    + ##"font-size="12" fill="#222222">\##(week.completions)</text>"##)
            parts.append(
                ##"<text x="\##(x + barWidth / 2)" y="\##(top + chartHeight + 18)" text-anchor="middle" "##
                    + ##"font-family="sans-serif" font-size="11" fill="#555555">\##(week.start.dropFirst(5))</text>"##)
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n") + "\n"
    }
}
