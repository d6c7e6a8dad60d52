import Foundation
import TestSupport

/// Runs the real `tandem` binary built next to the tests and captures its output.
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
    static var binary: URL { Vectors.productsDirectory.appendingPathComponent("tandem") }
    static var benchBinary: URL { Vectors.productsDirectory.appendingPathComponent("tandem-bench") }

    /// Runs `tandem arguments…` (or another built program) with `stdin`; stdout and stderr go
    /// through temporary files so a large output can never block the child.
    @discardableResult
    static func run(
        _ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:], program: URL = binary
    ) throws -> Output {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let inURL = scratch.url.appendingPathComponent("stdin")
        let outURL = scratch.url.appendingPathComponent("stdout")
        let errURL = scratch.url.appendingPathComponent("stderr")
        try stdin.write(to: inURL)
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)

        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = try FileHandle(forReadingFrom: inURL)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: try Data(contentsOf: outURL),
            stderr: try Data(contentsOf: errURL))
    }

    @discardableResult
    static func run(_ arguments: String..., stdin: String = "") throws -> Output {
        try run(arguments, stdin: Data(stdin.utf8))
    }

    /// Runs `tandem-bench arguments…`.
    static func bench(_ arguments: [String]) throws -> Output {
        try run(arguments, program: benchBinary)
    }

    /// A fresh temporary directory for files a test hands to the binary.
    static func temporaryDirectory() throws -> URL {
        try TemporaryDirectory().url
    }
}
