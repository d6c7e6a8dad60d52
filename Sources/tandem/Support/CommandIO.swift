import Foundation

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
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// One line to standard error.
    static func writeError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Prints `value` as one line of JSON with sorted keys and unescaped slashes.
    static func printJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        write(String(decoding: data, as: UTF8.self) + "\n")
    }
}
