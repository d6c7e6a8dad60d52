import CanonicalJSON
import Foundation
import RedoApp
import TaskStore

/// Differential vectors for the web app's saved filters (issue 45 item 4): preset names as
/// `TaskPresets.check` keeps or refuses them, and saved-query JSON as `TaskQuery` decodes and
/// validates it (in the web app's page shape when accepted). `Tests/WebApp/presets.test.mjs`
/// holds `checkName` and `queryFromJSON` of presets.js to them.
enum WebAppPresetVectors {
    static let names: [String] = [
        "Soon", "  Soon  ", "\tSoon\n", "", "   ", "\n", "a\nb", "a\rb", "a\u{2028}b", "a\u{2029}b", "a\u{85}b",
        "a\u{0B}b", "a\u{0C}b", "\u{3000}full width\u{3000}", "\u{1680}ogham", "\u{200B}zero width\u{200B}",
        "x\u{FEFF}", "\u{180E}mongolian", "\u{A0}no-break\u{A0}", "\u{2007}figure", "\u{202F}narrow",
        String(repeating: "a", count: 80), String(repeating: "a", count: 81), String(repeating: "é", count: 80),
        String(repeating: "e\u{301}", count: 80), String(repeating: "e\u{301}", count: 81),
        String(repeating: "👩‍👩‍👧", count: 80), String(repeating: "👩‍👩‍👧", count: 81), String(repeating: "🇸🇪", count: 80),
        "\r\n", " \r\n x \r\n ", "Ünïcödé name", "東京の予定",
    ]

    static let queries: [String] = [
        "{}", #"{"status":"all"}"#, #"{"status":"bogus"}"#, #"{"sort":"title","limit":3}"#, #"{"limit":0}"#,
        #"{"limit":2.0}"#, #"{"limit":2.5}"#, #"{"limit":"2"}"#, #"{"limit":-1}"#, #"{"limit":1e2}"#,
        #"{"priorityMin":1,"priorityMax":5}"#, #"{"priorityMin":4,"priorityMax":2}"#, #"{"priorityMin":0}"#,
        #"{"priorityMax":6}"#, #"{"priorityMin":3.0}"#, #"{"overdue":true,"noDue":true}"#, #"{"noDue":true}"#,
        #"{"noDue":true,"status":"completed"}"#, #"{"overdue":true,"status":"all"}"#,
        #"{"dueBefore":"2026-03-01T00:00:00.000Z"}"#, #"{"dueAfter":"2026-02-30T00:00:00.000Z"}"#,
        #"{"dueBefore":"2026-03-01"}"#, #"{"dueBefore":5}"#, #"{"search":5}"#, #"{"search":"Café  naïve"}"#,
        #"{"search":""}"#, #"{"ownership":"mine"}"#, #"{"ownership":"theirs"}"#, #"{"unknown":1}"#, "[]", "null",
        #""x""#, #"{"overdue":"yes"}"#, #"{"noDue":false,"overdue":false}"#, #"{"sort":"rank","status":"active"}"#,
        #"{"priorityMin":null}"#, #"{"status":null}"#, #"{"sort":"due","ownership":"shared","priorityMax":2}"#,
    ]

    static func file() throws -> [UInt8] {
        let names: [JSONValue] = try names.map { name in
            let kept = try? TaskPresets.check(name)
            return .object(try JSONObject([("name", .string(name)), ("kept", kept.map { .string($0) } ?? .null)]))
        }
        let queries: [JSONValue] = try queries.map { text in
            let query = (try? JSONDecoder().decode(TaskQuery.self, from: Data(text.utf8))).flatMap {
                try? $0.validated()
            }
            return .object(
                try JSONObject([
                    ("json", .string(text)), ("query", try query.map(WebAppQueryVectors.pageJSON) ?? .null),
                ]))
        }
        let about =
            "Written by RedoAppTests (WebAppQueryVectorTests) from TaskPresets.check and TaskQuery; read by Tests/WebApp/presets.test.mjs."
        let root = try JSONObject([("about", .string(about)), ("names", .array(names)), ("queries", .array(queries))])
        return try CanonicalJSON.canonicalBytes(of: .object(root))
    }
}
