import AsyncHTTPClient
import BenchSupport
import Foundation
import KaspaCrypto
import MicroBenchmarks
import NIOCore
import NIOHTTP1
import TandemAPI

/// Submissions/s through `POST /kasia/transactions` against raw BIP-340 verifies/s, sampled
/// in turn (issue 11 "Figures"): one verify sample, then one sample of each lane, and so on,
/// so a burst of load from other processes lands on all of them.
///
/// Lanes: the current server's submissions; optionally the same submissions to a baseline
/// server (an older `tandem-bench` binary's `relay-server`, for before/after in one run); and
/// the ceiling, the current server's cheapest POST (`/users/login`, which answers 410 without
/// reading the body or touching the store), with the same bodies over the same connections:
/// what the HTTP stack and this client cost before any relay work. A lane's sample sends the
/// next slice of pre-signed bodies through AsyncHTTPClient over `connections` keep-alive
/// connections, one request in flight on each, counts the slice over its wall time, and reads
/// the server's CPU time from `/proc`. A lane with ``Lane/wrk`` is loaded by wrk instead, for a
/// fixed time, with the same slice.
struct RelaySubmissionLoad {
    struct Lane {
        let name: String
        let server: RelayServerProcess
        let path: String
        let expectedStatus: Int
        let bodies: [[UInt8]]
        /// wrk as the load generator (``RelayWrkClient``); nil: this process's AsyncHTTPClient.
        var wrk: RelayWrkClient? = nil
    }

    struct LaneResult: Encodable {
        var name: String
        var requestsPerSecond: Double
        var bestRequestsPerSecond: Double
        /// Median requests/s ÷ median raw verifies/s.
        var ratio: Double
        /// Median server CPU (user + system) per request, µs.
        var serverCPUMicrosecondsPerRequest: Double
        /// Median CPU of this process (the load client) per request, µs: the client shares
        /// the server's cores, so both count against the machine.
        var clientCPUMicrosecondsPerRequest: Double
        var unexpectedStatus: Int
    }

    struct Result: Encodable {
        var connections: Int
        var samples: Int
        var submissionsPerSample: Int
        var submissionsPerSecond: Double
        var bestSubmissionsPerSecond: Double
        var verifiesPerSecond: Double
        var bestVerifiesPerSecond: Double
        /// Median submissions/s ÷ median raw verifies/s.
        var ratio: Double
        var non200: Int
        var serverCPUMicrosecondsPerSubmission: Double
        /// Every lane, the current submissions first.
        var lanes: [LaneResult]
    }

    let connections: Int
    let samples: Int

    func run(lanes: [Lane], verifyIterations: Int) async throws -> Result {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let result = try await run(lanes: lanes, verifyIterations: verifyIterations, http: http)
            try await http.shutdown()
            return result
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    private func run(lanes: [Lane], verifyIterations: Int, http: HTTPClient) async throws -> Result {
        let verifier = try RawVerifier()
        let perSample = (lanes.map(\.bodies.count).min() ?? 0) / (samples + 1)
        guard perSample >= connections else { throw CLIError("--requests: at least \(connections * (samples + 1))") }
        var verifyRates: [Double] = []
        var rates = Array(repeating: [Double](), count: lanes.count)
        var cpu = Array(repeating: [Double](), count: lanes.count)
        var clientCPU = Array(repeating: [Double](), count: lanes.count)
        var unexpected = Array(repeating: 0, count: lanes.count)
        // Sample 0 warms everything up and is discarded.
        for sample in 0...samples {
            let verifyTime = try verifier.measure(verifyIterations)
            if sample > 0 { verifyRates.append(Double(verifyIterations) / (verifyTime.nanoseconds / 1e9)) }
            for (index, lane) in lanes.enumerated() {
                let slice = Array(lane.bodies[(sample * perSample)..<((sample + 1) * perSample)])
                let cpuBefore = try lane.server.cpuSeconds()
                let clientBefore = Self.ownCPUSeconds()
                var rate: Double
                var requests = slice.count
                var clientUsed: Double
                var failures: Int
                if let wrk = lane.wrk {
                    let result = try wrk.run(
                        bodies: slice, port: lane.server.port, path: lane.path, expectedStatus: lane.expectedStatus)
                    (rate, requests, clientUsed, failures) = (
                        result.requestsPerSecond, result.requests, result.clientCPUSeconds, result.unexpected
                    )
                } else {
                    let elapsed: Duration
                    (elapsed, failures) = try await load(slice, lane: lane, http: http)
                    rate = Double(slice.count) / (elapsed.nanoseconds / 1e9)
                    clientUsed = Self.ownCPUSeconds() - clientBefore
                }
                let cpuUsed = try lane.server.cpuSeconds() - cpuBefore
                guard sample > 0, requests > 0 else { continue }
                rates[index].append(rate)
                cpu[index].append(cpuUsed * 1e6 / Double(requests))
                clientCPU[index].append(clientUsed * 1e6 / Double(requests))
                unexpected[index] += failures
            }
        }
        let verify = Self.median(verifyRates)
        let results = lanes.indices.map { index in
            LaneResult(
                name: lanes[index].name, requestsPerSecond: Self.median(rates[index]),
                bestRequestsPerSecond: rates[index].max() ?? 0, ratio: Self.median(rates[index]) / verify,
                serverCPUMicrosecondsPerRequest: Self.median(cpu[index]),
                clientCPUMicrosecondsPerRequest: Self.median(clientCPU[index]), unexpectedStatus: unexpected[index])
        }
        let current = results[0]
        return Result(
            connections: connections, samples: samples, submissionsPerSample: perSample,
            submissionsPerSecond: current.requestsPerSecond, bestSubmissionsPerSecond: current.bestRequestsPerSecond,
            verifiesPerSecond: verify, bestVerifiesPerSecond: verifyRates.max() ?? verify, ratio: current.ratio,
            non200: current.unexpectedStatus,
            serverCPUMicrosecondsPerSubmission: current.serverCPUMicrosecondsPerRequest,
            lanes: results)
    }

    /// The baseline: one BIP-340 verify of a fixed signature, timed over `iterations` in a row.
    struct RawVerifier {
        let digest = RelayDigest(sender: "bench", receiver: nil, amount: nil, nonce: 1, payload: [1, 2, 3]).bytes
        let signature: SchnorrSignature
        let publicKey: XOnlyPublicKey

        init() throws {
            let key = try RelayBenchFixtures.key(9)
            signature = try key.signature(for: digest)
            publicKey = key.xOnlyPublicKey
        }

        func measure(_ iterations: Int) throws -> Duration {
            var valid = 0
            let time = ContinuousClock().measure {
                for _ in 0..<iterations where publicKey.isValidSignature(signature, for: digest) { valid += 1 }
            }
            guard valid == iterations else { throw CLIError("relay bench: the baseline signature did not verify") }
            return time
        }
    }

    /// User + system CPU of this process so far, seconds.
    static func ownCPUSeconds() -> Double {
        var usage = rusage()
        guard getrusage(Int32(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// Sends `slice` with `connections` requests in flight; returns the wall time and the count
    /// of answers other than the lane's expected status.
    private func load(_ slice: [[UInt8]], lane: Lane, http: HTTPClient) async throws -> (Duration, Int) {
        let url = "http://127.0.0.1:\(lane.server.port)\(lane.path)"
        let (expected, connections) = (lane.expectedStatus, connections)
        let clock = ContinuousClock()
        let start = clock.now
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<connections {
                group.addTask {
                    var failures = 0
                    for item in stride(from: index, to: slice.count, by: connections) {
                        var request = HTTPClientRequest(url: url)
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.body = .bytes(ByteBuffer(bytes: slice[item]))
                        let response = try await http.execute(request, timeout: .seconds(30))
                        // Read the answer to its end, as a client that uses it would.
                        _ = try await response.body.collect(upTo: 1 << 20)
                        if Int(response.status.code) != expected { failures += 1 }
                    }
                    return failures
                }
            }
            return try await group.reduce(0, +)
        }
        return (clock.now - start, failures)
    }
}
