import BenchSupport
import Foundation

/// Runs `wrk --latency` and reads requests/s, p50, p99 and non-2xx counts from its report.
struct WrkRunner {
    struct Result {
        var requestsPerSecond: Double
        var p50: String
        var p99: String
        var non2xx: Int
        /// Requests completed and bytes read over the run (wrk's "N requests in Ts, X read").
        var requests = 0
        var bytesRead = 0.0

        /// This process's CPU (user + system, every thread) over the run: the server's, when the
        /// server runs in this process (wrk is a child, counted apart).
        var ownCPUSeconds = 0.0

        /// This process's CPU per completed request, µs.
        var cpuMicrosecondsPerRequest: Double { requests > 0 ? ownCPUSeconds * 1e6 / Double(requests) : 0 }

        /// The mean answer size, headers included.
        var bytesPerRequest: Double { requests > 0 ? bytesRead / Double(requests) : 0 }
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

    /// Loads `url`; with `script`, wrk runs that Lua file with `scriptArguments` after `--`.
    func run(url: String, cookie: String?, script: String? = nil, scriptArguments: [String] = []) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        var arguments = ["--latency", "-t\(threads)", "-c\(connections)", "-d\(duration)s"]
        if let cookie { arguments += ["-H", "Cookie: \(cookie)"] }
        if let script { arguments += ["-s", script] }
        arguments.append(url)
        if script != nil, !scriptArguments.isEmpty { arguments += ["--"] + scriptArguments }
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let cpuBefore = RelaySubmissionLoad.ownCPUSeconds()
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let cpu = RelaySubmissionLoad.ownCPUSeconds() - cpuBefore
        let text = String(decoding: data, as: UTF8.self)
        var result = Result(requestsPerSecond: 0, p50: "?", p99: "?", non2xx: 0, ownCPUSeconds: cpu)
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first == "Requests/sec:", fields.count > 1 { result.requestsPerSecond = Double(fields[1]) ?? 0 }
            if first == "50%", fields.count > 1 { result.p50 = String(fields[1]) }
            if first == "99%", fields.count > 1 { result.p99 = String(fields[1]) }
            if line.contains("Non-2xx"), let last = fields.last { result.non2xx = Int(last) ?? 0 }
            if fields.count >= 6, fields[1] == "requests", fields[2] == "in" {
                result.requests = Int(first) ?? 0
                result.bytesRead = Self.bytes(fields[4].trimmingCharacters(in: CharacterSet(charactersIn: ",")))
            }
        }
        guard result.requestsPerSecond > 0 else { throw CLIError("wrk \(url): no Requests/sec in its output") }
        return result
    }

    /// wrk's byte counts: a number and a binary unit ("70.12MB" is 70.12 × 2^20 bytes).
    static func bytes(_ text: String) -> Double {
        let units: [(String, Double)] = [("TB", 0x1p40), ("GB", 0x1p30), ("MB", 0x1p20), ("KB", 0x1p10), ("B", 1)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            return (Double(text.dropLast(suffix.count)) ?? 0) * scale
        }
        return Double(text) ?? 0
    }
}
