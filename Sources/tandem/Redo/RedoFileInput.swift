import CanonicalJSON
import Foundation

/// Reads the JSON files the `redo` tools take.
enum RedoFileInput {
    /// Vector-sized files (a 1 MiB payload, arrays of many nodes) must fit.
    static let limits = JSONParser.Limits(maxBytes: 256 << 20, maxDepth: 128)

    static func bytes(of path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("cannot read file '\(path)'")
        }
        return Array(data)
    }

    static func json(of path: String) throws -> JSONValue {
        do {
            return try CanonicalJSON.parse(try bytes(of: path), limits: limits)
        } catch let error as CanonicalJSONError {
            throw CLIError("file '\(path)' is not valid I-JSON: \(error)")
        }
    }

    /// Writes canonical JSON and one newline.
    static func printCanonical(_ value: JSONValue) throws {
        var bytes = try CanonicalJSON.canonicalBytes(of: value)
        bytes.append(0x0A)
        FileHandle.standardOutput.write(Data(bytes))
    }
}
