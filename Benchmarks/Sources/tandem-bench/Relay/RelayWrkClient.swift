import BenchSupport
import Foundation

/// The relay bench's second load generator: wrk (C, one thread, a few keep-alive connections),
/// whose CPU per request is a fraction of the Swift client's threads, so on 2 shared cores
/// more of the machine is left to the server (issue 11 "Figures").
///
/// wrk runs for a fixed time; its Lua script sends the pre-signed bodies of the sample's file
/// in order, starting over after the last. A submission sample that runs out of bodies would
/// resend old ones (answered as resubmissions, cheaper), so it fails instead: give
/// `--requests` enough for the rate. The ceiling lane may start over (410, body unread).
struct RelayWrkClient {
    struct Sample {
        var requestsPerSecond: Double
        var requests: Int
        var unexpected: Int
        /// CPU (user + system) wrk used, seconds.
        var clientCPUSeconds: Double
    }

    let executable: String
    let connections: Int
    let seconds: Int
    let directory: URL

    /// The script: `init` formats one request per line of the file given after `--` (so the
    /// per-request Lua work is a table lookup), `request` hands out the next, `done` reports
    /// how many threads ran past the last. No `response` callback, so wrk parses answers in C
    /// and counts non-2xx itself.
    static let script = """
        local threads = {}
        function setup(thread) table.insert(threads, thread) end
        function init(args)
          local headers = { ["Content-Type"] = "application/json" }
          requests = {}
          for line in io.lines(args[1]) do requests[#requests + 1] = wrk.format("POST", nil, headers, line) end
          sent = 0
        end
        function request()
          sent = sent + 1
          return requests[(sent - 1) % #requests + 1]
        end
        function done(summary, latency, counts)
          local over = 0
          for _, thread in ipairs(threads) do
            if thread:get("sent") > #thread:get("requests") then over = over + 1 end
          end
          io.write(string.format("exhausted %d\\n", over))
        end
        """

    /// Sends `bodies` (one sample) to `path` on the loopback `port`; `expectedStatus` 200
    /// counts every non-2xx answer as unexpected, any other status (the ceiling's 410) every
    /// 2xx one.
    func run(bodies: [[UInt8]], port: Int, path: String, expectedStatus: Int) throws -> Sample {
        let scriptFile = directory.appendingPathComponent("relay-wrk.lua")
        if !FileManager.default.fileExists(atPath: scriptFile.path) {
            try Data(Self.script.utf8).write(to: scriptFile)
        }
        let bodyFile = directory.appendingPathComponent("relay-wrk-bodies.jsonl")
        var text = [UInt8]()
        for body in bodies {
            text += body
            text.append(UInt8(ascii: "\n"))
        }
        try Data(text).write(to: bodyFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "-t1", "-c\(connections)", "-d\(seconds)s", "-s", scriptFile.path,
            "http://127.0.0.1:\(port)\(path)", "--", bodyFile.path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let cpuBefore = Self.childrenCPUSeconds()
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let cpu = Self.childrenCPUSeconds() - cpuBefore
        return try Self.parse(output, expectedStatus: expectedStatus, clientCPUSeconds: cpu)
    }

    static func parse(_ output: String, expectedStatus: Int, clientCPUSeconds: Double) throws -> Sample {
        var rate: Double?
        var requests: Int?
        var non2xx = 0
        var exhausted: Int?
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first == "Requests/sec:", fields.count > 1 { rate = Double(fields[1]) }
            if fields.count > 2, fields[1] == "requests", fields[2] == "in" { requests = Int(first) }
            if line.contains("Non-2xx"), let last = fields.last { non2xx = Int(last) ?? 0 }
            if first == "exhausted", fields.count > 1 { exhausted = Int(fields[1]) }
        }
        guard let rate, let requests, let exhausted else {
            throw CLIError("relay bench: unreadable wrk output: \(output.prefix(300))")
        }
        // The ceiling's answer does not read the body, so only stored lanes need every body new.
        guard exhausted == 0 || expectedStatus / 100 != 2 else {
            throw CLIError("relay bench: wrk ran out of distinct bodies (raise --requests or lower --wrk-seconds)")
        }
        let unexpected = expectedStatus / 100 == 2 ? non2xx : requests - non2xx
        return Sample(
            requestsPerSecond: rate, requests: requests, unexpected: unexpected, clientCPUSeconds: clientCPUSeconds)
    }

    /// User + system CPU of this process's waited-for children so far, seconds.
    static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        guard getrusage(Int32(RUSAGE_CHILDREN.rawValue), &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
