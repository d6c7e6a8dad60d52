import CanonicalJSON
import Foundation
import TandemBasics

/// docs/cli-json.md read as a contract (issue 51 item 6): its `command` and `shape` blocks,
/// and a checker that names every way a command's output differs from them.
struct CLIJSONContract {
    indirect enum Kind: Equatable {
        case string, integer, number, bool, time, sompi, object
        case array(Kind)
        case shape(String)
        case nullable(Kind)
    }

    struct Member: Equatable {
        let name: String
        let optional: Bool
        let kind: Kind
        /// `deprecated NEW`: the old name of `NEW`, kept for one release.
        let replacement: String?
        /// `fixed REASON`: a name another format owns.
        let fixed: Bool
    }

    enum Body: Equatable {
        case members([Member], includes: [String])
        case whole(Kind)
        case lines(Kind)
    }

    private(set) var commands: [String: Body] = [:]
    private(set) var shapes: [String: [Member]] = [:]

    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../docs/cli-json.md").standardized

    static func load() throws -> CLIJSONContract {
        try CLIJSONContract(markdown: String(contentsOf: path, encoding: .utf8))
    }

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    init(markdown: String) throws {
        var heading: (kind: String, name: String)?
        var lines: [String] = []
        for line in markdown.components(separatedBy: "\n") {
            if let open = heading {
                if line == "```" {
                    try add(kind: open.kind, name: open.name, lines: lines)
                    heading = nil
                    lines = []
                } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                    lines.append(line)
                }
            } else if line.hasPrefix("```command ") {
                heading = ("command", String(line.dropFirst("```command ".count)))
            } else if line.hasPrefix("```shape ") {
                heading = ("shape", String(line.dropFirst("```shape ".count)))
            }
        }
        for body in commands.values {
            if case .members(_, let includes) = body {
                for name in includes where shapes[name] == nil { throw ParseError(description: "no shape \(name)") }
            }
        }
    }

    private mutating func add(kind: String, name: String, lines: [String]) throws {
        let words = lines.map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        if kind == "command", words.count == 1, let only = words.first {
            if only.count == 1 {
                commands[name] = .whole(try Self.kind(only[0]))
                return
            }
            if only.count == 2, only[0] == "lines" {
                commands[name] = .lines(try Self.kind(only[1]))
                return
            }
        }
        var members: [Member] = []
        var includes: [String] = []
        for line in words {
            if line[0].hasPrefix("...") {
                includes.append(String(line[0].dropFirst(3)))
                continue
            }
            guard line.count >= 2 else { throw ParseError(description: "\(name): '\(line.joined(separator: " "))'") }
            let optional = line[0].hasSuffix("?")
            members.append(
                Member(
                    name: optional ? String(line[0].dropLast()) : line[0], optional: optional,
                    kind: try Self.kind(line[1]),
                    replacement: line.count >= 4 && line[2] == "deprecated" ? line[3] : nil,
                    fixed: line.count >= 3 && line[2] == "fixed"))
        }
        if kind == "shape" { shapes[name] = members } else { commands[name] = .members(members, includes: includes) }
    }

    static func kind(_ text: String) throws -> Kind {
        if text.hasSuffix("|null") { return .nullable(try kind(String(text.dropLast(5)))) }
        if text.hasPrefix("[") && text.hasSuffix("]") { return .array(try kind(String(text.dropFirst().dropLast()))) }
        switch text {
        case "string": return .string
        case "integer": return .integer
        case "number": return .number
        case "bool": return .bool
        case "time": return .time
        case "sompi": return .sompi
        case "object": return .object
        default:
            guard text.first?.isUppercase == true else { throw ParseError(description: "unknown type '\(text)'") }
            return .shape(text)
        }
    }

    /// The members a command's object has, its `...Shape` lines expanded.
    func members(of body: Body) -> [Member] {
        guard case .members(let own, let includes) = body else { return [] }
        return includes.flatMap { shapes[$0] ?? [] } + own
    }

    /// Every difference between `output` (stdout of `command`) and the contract; empty when it
    /// conforms. A stream is checked line by line, and must have at least one line.
    func problems(command: String, output: Data) -> [String] {
        guard let body = commands[command] else { return ["\(command): not in docs/cli-json.md"] }
        let text = String(decoding: output, as: UTF8.self)
        let documents: [Substring]
        if case .lines = body {
            documents = text.split(separator: "\n")
            if documents.isEmpty { return ["\(command): printed no lines"] }
        } else {
            documents = [Substring(text)]
        }
        var problems: [String] = []
        for document in documents {
            guard let value = try? CanonicalJSON.parse(Data(document.utf8)) else {
                problems.append("\(command): not JSON: \(document.prefix(120))")
                continue
            }
            switch body {
            case .whole(let kind), .lines(let kind): check(value, kind, at: command, into: &problems)
            case .members: check(value, members(of: body), at: command, into: &problems)
            }
        }
        return problems
    }

    private func check(_ value: JSONValue, _ members: [Member], at path: String, into problems: inout [String]) {
        guard let object = value.objectValue else {
            problems.append("\(path): expected an object")
            return
        }
        let named = Dictionary(members.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for key in object.keys where named[key] == nil {
            problems.append("\(path).\(key): not documented")
        }
        for member in members {
            guard let found = object[member.name] else {
                if !member.optional { problems.append("\(path).\(member.name): missing") }
                continue
            }
            check(found, member.kind, at: "\(path).\(member.name)", into: &problems)
            if let replacement = member.replacement, let new = object[replacement], !Self.sameValue(found, new) {
                problems.append("\(path).\(member.name): differs from \(replacement)")
            }
        }
    }

    /// An old name holds the new one's value; for a time, the old name may hold its milliseconds
    /// (a number, or a string of digits).
    static func sameValue(_ old: JSONValue, _ new: JSONValue) -> Bool {
        if old == new { return true }
        guard let text = new.stringValue, let instant = UnixMillis(iso8601: text) else { return false }
        return old.numberValue == Double(instant.rawValue) || old.stringValue == String(instant.rawValue)
    }

    private func check(_ value: JSONValue, _ kind: Kind, at path: String, into problems: inout [String]) {
        switch kind {
        case .nullable(let inner): if value != .null { check(value, inner, at: path, into: &problems) }
        case .string: if value.stringValue == nil { problems.append("\(path): expected a string") }
        case .time:
            if value.stringValue.flatMap({ UnixMillis(iso8601: $0) }) == nil {
                problems.append("\(path): expected an ISO-8601 UTC time")
            }
        case .bool: if value.boolValue == nil { problems.append("\(path): expected a bool") }
        case .number: if value.numberValue == nil { problems.append("\(path): expected a number") }
        case .integer, .sompi:
            guard let number = value.numberValue, number.rounded() == number, kind == .integer || number >= 0 else {
                return problems.append("\(path): expected \(kind == .sompi ? "sompi" : "an integer")")
            }
        case .object: if value.objectValue == nil { problems.append("\(path): expected an object") }
        case .array(let element):
            guard let array = value.arrayValue else { return problems.append("\(path): expected an array") }
            for (index, item) in array.enumerated() { check(item, element, at: "\(path)[\(index)]", into: &problems) }
        case .shape(let name):
            guard let members = shapes[name] else { return problems.append("\(path): no shape \(name)") }
            check(value, members, at: path, into: &problems)
        }
    }
}
