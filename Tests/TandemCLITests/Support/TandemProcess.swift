import Foundation

/// Runs the real `tandem` binary as a subprocess and captures its output.
struct TandemProcess {
    struct Output {
        let status: Int32
        let stdout: Data
        let stderr: Data
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    enum LaunchError: Error { case binaryNotFound }

    /// `.build/debug/tandem` of the package that holds this file.
    static func binaryURL() throws -> URL {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                let binary = directory.appendingPathComponent(".build/debug/tandem")
                if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
                throw LaunchError.binaryNotFound
            }
            directory.deleteLastPathComponent()
        }
        throw LaunchError.binaryNotFound
    }

    /// Runs `tandem arguments…` with `stdin`; stdout and stderr go through temporary files so a
    /// large output can never block the child.
    static func run(_ arguments: [String], stdin: Data = Data()) throws -> Output {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inURL = scratch.appendingPathComponent("stdin")
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        try stdin.write(to: inURL)
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = try binaryURL()
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: inURL)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: try Data(contentsOf: outURL),
                      stderr: try Data(contentsOf: errURL))
    }

    /// A fresh temporary directory for files a test hands to the binary.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
