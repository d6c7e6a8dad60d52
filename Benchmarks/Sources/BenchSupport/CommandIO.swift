package import Foundation

/// Standard output and error for benchmark commands.
package enum CommandIO {
    /// Writes `text` to stdout exactly, with no newline added.
    package static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Prints `value` as one line of JSON with sorted keys and unescaped slashes: the form
    /// `tandem bench … --json` printed, which BENCHMARKS.md and scripts read.
    package static func printJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        write(String(decoding: try encoder.encode(value), as: UTF8.self) + "\n")
    }
}
