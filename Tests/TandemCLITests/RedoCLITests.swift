import CanonicalJSON
import Foundation
import TestSupport
import Testing

/// The vectors, parsed with the strict parser so nodes are written back byte-for-byte faithfully.
enum CLIVectors {
    static let root: JSONValue? = {
        guard let data = try? Vectors.data(named: "redo-vectors") else { return nil }
        return try? CanonicalJSON.parse(data, limits: .init(maxBytes: 64 << 20))
    }()

    static func list(_ name: String) -> [JSONValue] { root?[name]?.arrayValue ?? [] }

    static func write(_ value: JSONValue, in directory: URL, name: String = "input.json") throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(try CanonicalJSON.canonicalBytes(of: value)).write(to: url)
        return url.path
    }
}

struct CLIVector: CustomTestStringConvertible, Sendable {
    let value: JSONValue
    var testDescription: String { value["name"]?.stringValue ?? "unnamed" }
    static func all(_ section: String) -> [CLIVector] { CLIVectors.list(section).map(CLIVector.init) }
}

@Suite struct RedoCLITests {
    @Test(arguments: CLIVector.all("canonicalization"))
    func canonPrintsExactCanonicalBytesAndOneNewline(_ vector: CLIVector) async throws {
        let input = try #require(vector.value["input"]?.stringValue)
        let output = try await TandemProcess.run(["redo", "canon"], stdin: Data(input.utf8))
        #expect(output.status == 0)
        let expected = try #require(Data(testHex: vector.value["canonicalUtf8Hex"]?.stringValue ?? "")) + Data([0x0A])
        #expect(output.stdout == expected)
    }

    @Test(arguments: CLIVector.all("canonicalizationErrors"))
    func canonExitsOneOnInvalidJSON(_ vector: CLIVector) async throws {
        let input = try #require(vector.value["input"]?.stringValue)
        let output = try await TandemProcess.run(["redo", "canon"], stdin: Data(input.utf8))
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrText.hasPrefix("tandem: "))
        #expect(output.stderrText.filter { $0 == "\n" }.count == 1)
    }

    @Test(arguments: CLIVector.all("validNodes"))
    func idAndValidateAgreeWithValidNodeVectors(_ vector: CLIVector) async throws {
        let directory = try TandemProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLIVectors.write(try #require(vector.value["node"]), in: directory)
        let id = try await TandemProcess.run(["redo", "id", path])
        #expect(id.status == 0)
        #expect(id.stdoutText == (vector.value["id"]?.stringValue ?? "") + "\n")
        let validate = try await TandemProcess.run(["redo", "validate", path, "--json"])
        #expect(validate.status == 0)
        #expect(validate.stdoutText == #"{"code":null,"detail":null,"valid":true}"# + "\n")
    }

    @Test(arguments: CLIVector.all("invalidNodes"))
    func validateReportsAnAcceptableCodeForInvalidNodes(_ vector: CLIVector) async throws {
        let directory = try TandemProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("node.json")
        if let text = vector.value["nodeJsonText"]?.stringValue {
            try Data(text.utf8).write(to: url)
        } else {
            try Data(try CanonicalJSON.canonicalBytes(of: try #require(vector.value["node"]))).write(to: url)
        }
        var arguments = ["redo", "validate", url.path, "--json"]
        if vector.value["requireSignature"] == .bool(true) { arguments.append("--require-signature") }
        let output = try await TandemProcess.run(arguments)
        #expect(output.status == 0)
        let verdict = try CanonicalJSON.parse(output.stdout)
        #expect(verdict["valid"] == .bool(false))
        let acceptable = (vector.value["acceptableCodes"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(acceptable.contains(verdict["code"]?.stringValue ?? "none"))
        #expect(verdict["detail"]?.stringValue?.isEmpty == false)
    }

    @Test(arguments: CLIVector.all("scenarios"))
    func replayJSONMatchesScenarioExpectation(_ vector: CLIVector) async throws {
        let directory = try TandemProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLIVectors.write(try #require(vector.value["nodes"]), in: directory)
        let output = try await TandemProcess.run(["redo", "replay", path, "--json"])
        #expect(output.status == 0)
        let actual = try CanonicalJSON.parse(output.stdout)
        let expected = try #require(vector.value["expected"])
        for key in ["accepted", "tombstones", "pruned", "deletedTasks", "tasks"] {
            #expect(actual[key] == expected[key], "\(key)")
        }
        for key in ["rejected", "pending"] {
            let pairs: (JSONValue?) -> [String] = { list in
                (list?.arrayValue ?? []).map { "\($0["id"]?.stringValue ?? "") \($0["code"]?.stringValue ?? "")" }
            }
            #expect(pairs(actual[key]) == pairs(expected[key]), "\(key)")
        }
    }

    @Test func replayRefusesAFileThatIsNotAnArray() async throws {
        let directory = try TandemProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try CLIVectors.write(.object(JSONObject()), in: directory)
        let output = try await TandemProcess.run(["redo", "replay", path, "--json"])
        #expect(output.status == 1)
        #expect(output.stderrText.contains("JSON array"))
    }

    @Test func idReportsAMissingFile() async throws {
        let output = try await TandemProcess.run(["redo", "id", "/nonexistent/node.json"])
        #expect(output.status == 1)
        #expect(output.stderrText.contains("/nonexistent/node.json"))
    }
}
