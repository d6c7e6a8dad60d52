import Foundation
import TestSupport

/// Runs the real `tandem` binary built next to the tests and captures its output, awaited
/// through swift-subprocess (``ChildProcess``) so no thread of the test process waits.
struct TandemProcess {
    struct Output {
        let status: Int32
        let stdout: Data
        let stderr: Data
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        var stderrText: String { String(decoding: stderr, as: UTF8.self) }
        var stderrLines: [Substring] { stderrText.split(separator: "\n") }
    }

    /// The binaries sit in the build products directory, next to the test resources.
    static var binary: URL { ServerProcess.binary }
    /// Runs `tandem arguments…` (or another built program) with `stdin`.
    @discardableResult
    static func run(
        _ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:], program: URL = binary
    ) async throws -> Output {
        let collected = try await ChildProcess.collect(
            program, arguments, stdin: stdin, environment: environment.mapValues { $0 })
        return Output(status: collected.status, stdout: collected.stdout, stderr: collected.stderr)
    }

    @discardableResult
    static func run(_ arguments: String..., stdin: String = "") async throws -> Output {
        try await run(arguments, stdin: Data(stdin.utf8))
    }

    /// A fresh temporary directory for files a test hands to the binary.
    static func temporaryDirectory() throws -> URL {
        try TemporaryDirectory().url
    }
}
