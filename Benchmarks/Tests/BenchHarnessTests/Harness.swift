import Foundation
import Subprocess

/// Runs one of this package's tools as a child process, as CI and a developer run them.
enum Harness {
    struct Output {
        let status: Int32
        let stdout: Data
        let stderr: Data
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Where SwiftPM put this build's executables: beside the test runner.
    static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// Fails with the command that builds `tool` when it is not beside the tests: the tools find
    /// `tandem` and `tandem-simnode` there (one build directory holds every executable).
    static func requireBuilt(_ tool: String) throws {
        let path = productsDirectory.appendingPathComponent(tool).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Missing(description: "\(path) is not built: TANDEM_BENCHMARKS=1 swift build --product \(tool)")
        }
    }

    struct Missing: Error, CustomStringConvertible { let description: String }

    /// Runs `tool arguments…` (`tandem-bench`, `tandem-crash`) to its end.
    static func run(_ tool: String, _ arguments: [String]) async throws -> Output {
        let result = try await Subprocess.run(
            .path(.init(productsDirectory.appendingPathComponent(tool).path)), arguments: Arguments(arguments),
            output: .data(limit: 1 << 26), error: .data(limit: 1 << 24))
        let status: Int32 =
            switch result.terminationStatus {
            case .exited(let code): code
            case .signaled(let signal): 128 + signal
            }
        return Output(status: status, stdout: result.standardOutput, stderr: result.standardError)
    }
}
