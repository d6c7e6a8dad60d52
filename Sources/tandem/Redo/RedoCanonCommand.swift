import ArgumentParser
import CanonicalJSON
import Foundation

extension RedoCommand {
    /// `tandem redo canon`: stdin JSON → exactly its RFC 8785 bytes plus one newline (spec §4).
    struct Canon: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "canon",
            abstract: "Read JSON on stdin and print its RFC 8785 canonical form followed by one newline.",
            discussion:
                "Exits 1 with one line on stderr when stdin is not I-JSON (duplicate keys, lone surrogates, NaN, …)."
        )

        func run() throws {
            let input = CommandIO.readStandardInput()
            var output: [UInt8]
            do {
                output = try CanonicalJSON.canonicalize(input, limits: RedoFileInput.limits)
            } catch {
                throw CLIError("standard input is not valid I-JSON: \(error)")
            }
            output.append(0x0A)
            FileHandle.standardOutput.write(Data(output))
        }
    }
}
