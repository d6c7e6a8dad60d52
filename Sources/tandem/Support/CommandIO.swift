import CommandLineContract
import Foundation
import TandemAPI

/// Standard streams for commands: stdin as bytes or text, JSON and error lines.
enum CommandIO {
    /// All of standard input.
    static func readStandardInput() -> Data {
        FileHandle.standardInput.readDataToEndOfFile()
    }

    /// Standard input as UTF-8 text, or a `CLIError` naming stdin.
    static func readStandardInputText() throws -> String {
        guard let text = String(data: readStandardInput(), encoding: .utf8) else {
            throw CLIError("standard input is not valid UTF-8")
        }
        return text
    }

    /// Writes `text` to stdout exactly, with no newline added.
    /// Human output: made terminal-safe (``CommandLineContract/terminalSafe(_:)``, issue 50
    /// item 8), as every string in it may have come from someone else.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(CommandLineContract.terminalSafe(text).utf8))
    }

    /// One line to standard error, terminal-safe as ``write(_:)``.
    static func writeError(_ line: String) {
        FileHandle.standardError.write(Data((CommandLineContract.terminalSafe(line) + "\n").utf8))
    }

    /// Prints `value` as one line of JSON with sorted keys and unescaped slashes.
    /// Sorted keys, and dates in the wire's form (ISO-8601 with milliseconds, `APIJSON`), so a
    /// value the server sent prints as the server wrote it.
    static func printJSON<T: Encodable>(_ value: T) throws {
        let data = try APIJSON.encoder().encode(value)
        write(String(decoding: data, as: UTF8.self) + "\n")
    }
}

/// An optional JSON member written as `null` when absent, not left out (what the synthesized
/// encoder does with an optional), so a script reads the member without a key check.
struct OrNull<Wrapped: Encodable>: Encodable {
    let value: Wrapped?

    init(_ value: Wrapped?) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}

/// A JSON member name chosen at run time, for outputs whose member names are data.
struct JSONKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
