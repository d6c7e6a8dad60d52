import Foundation
import TestSupport

/// Runs the real `tandem` binary built next to the tests.
struct TandemProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        var stdoutData: Data

        var stderrLines: [Substring] { stderr.split(separator: "\n") }
    }

    static var binary: URL { Vectors.productsDirectory.appendingPathComponent("tandem") }

    /// Runs `tandem arguments…` with `stdin` piped in; stdout and stderr go through files so a
    /// large output can never block the child.
    @discardableResult
    static func run(_ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:]) throws -> Result {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let outURL = scratch.url.appendingPathComponent("stdout")
        let errURL = scratch.url.appendingPathComponent("stderr")
        let inURL = scratch.url.appendingPathComponent("stdin")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: inURL.path, contents: stdin)

        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = try FileHandle(forReadingFrom: inURL)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        process.waitUntilExit()

        let out = try Data(contentsOf: outURL)
        let err = try Data(contentsOf: errURL)
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self),
            stdoutData: out
        )
    }

    static func run(_ arguments: String..., stdin: String = "") throws -> Result {
        try run(arguments, stdin: Data(stdin.utf8))
    }
}
