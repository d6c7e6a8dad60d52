import BenchSupport
import Foundation

/// Runs `wrk --latency` and reads requests/s, p50, p99 and non-2xx counts from its report.
struct WrkRunner {
    struct Result {
        var requestsPerSecond: Double
        var p50: String
        var p99: String
        var non2xx: Int
    }

    let path: String
    let duration: Int
    let connections: Int
    let threads: Int

    static func locate() -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = "\(directory)/wrk"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    func run(url: String, cookie: String?) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        var arguments = ["--latency", "-t\(threads)", "-c\(connections)", "-d\(duration)s"]
        if let cookie { arguments += ["-H", "Cookie: \(cookie)"] }
        process.arguments = arguments + [url]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        var result = Result(requestsPerSecond: 0, p50: "?", p99: "?", non2xx: 0)
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first == "Requests/sec:", fields.count > 1 { result.requestsPerSecond = Double(fields[1]) ?? 0 }
            if first == "50%", fields.count > 1 { result.p50 = String(fields[1]) }
            if first == "99%", fields.count > 1 { result.p99 = String(fields[1]) }
            if line.contains("Non-2xx"), let last = fields.last { result.non2xx = Int(last) ?? 0 }
        }
        guard result.requestsPerSecond > 0 else { throw CLIError("wrk \(url): no Requests/sec in its output") }
        return result
    }
}
