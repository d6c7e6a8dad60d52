import AsyncHTTPClient
import BenchSupport
import Foundation
import KasiaProtocol
import KaspaCrypto
import MicroBenchmarks
import NIOCore
import TandemAPI

/// Submit → stream delivery latency with many open streams, and the server's memory per idle
/// stream (issue 11 "Figures").
///
/// `streams` idle Server-Sent-Events connections each watch their own alias; one more watches
/// the measured alias. Messages on that alias are submitted at a steady pace from another
/// connection; a submission's latency runs from just before its request is handed to
/// AsyncHTTPClient to the moment its `tx_id` is read from the watcher's stream. Resident memory of the server
/// process is read before and after the idle streams open.
struct RelayStreamLatency {
    struct Result: Encodable {
        var streams: Int
        var submissions: Int
        var delivered: Int
        var intervalMilliseconds: Int
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        var maxMilliseconds: Double
        var serverResidentBytesBefore: Int
        var serverResidentBytesAfter: Int
        var bytesPerIdleStream: Double
    }

    let server: RelayServerProcess
    let streams: Int
    let submissions: Int
    let interval: Duration

    func run() async throws -> Result {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: streams + 8)
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let result = try await run(http: http)
            try await http.shutdown()
            return result
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    private func run(http: HTTPClient) async throws -> Result {
        let key = try RelayBenchFixtures.key(5)
        let measured = try RelayBenchFixtures.alias(0)
        let base = "http://127.0.0.1:\(server.port)"
        return try await withThrowingTaskGroup(of: Void.self) { group in
            defer { group.cancelAll() }
            // Warm the server up (first stream, first submissions) before reading its memory.
            try await open(alias: try RelayBenchFixtures.alias(999_999), in: &group, http: http)
            for nonce in 0..<20 {
                _ = try await submit(
                    try RelayBenchFixtures.submission(
                        key: key, alias: try RelayBenchFixtures.alias(999_999), nonce: 500_000 + UInt64(nonce)),
                    base: base, http: http)
            }
            // Settling time for the server's heap, not an ordering of events.
            try await Task.sleep(for: .milliseconds(500))
            let before = try server.residentBytes()
            for index in 0..<streams {
                try await open(alias: try RelayBenchFixtures.alias(index + 1), in: &group, http: http)
            }
            try await Task.sleep(for: .milliseconds(500))
            let after = try server.residentBytes()

            let arrivals = ArrivalLog()
            try await open(alias: measured, in: &group, http: http, arrivals: arrivals)
            let clock = ContinuousClock()
            var sent: [(String, ContinuousClock.Instant)] = []
            var next = clock.now
            for nonce in 0..<submissions {
                let submission = try RelayBenchFixtures.submission(
                    key: key, alias: measured, nonce: 1_000_000 + UInt64(nonce))
                try await Task.sleep(until: next, tolerance: .zero, clock: clock)
                let start = clock.now
                let txID = try await submit(submission, base: base, http: http)
                sent.append((txID, start))
                next = next.advanced(by: interval)
            }
            let deadline = clock.now.advanced(by: .seconds(5))
            while arrivals.count < sent.count && clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }

            let seen = arrivals.snapshot
            var latencies = sent.compactMap { txID, start in seen[txID].map { ($0 - start).nanoseconds / 1e6 } }
            latencies.sort()
            guard !latencies.isEmpty else { throw CLIError("relay bench: no submission reached the stream") }
            func percentile(_ p: Double) -> Double {
                latencies[min(latencies.count - 1, max(0, Int((Double(latencies.count) * p).rounded(.up)) - 1))]
            }
            let perStream = streams > 0 ? Double(after - before) / Double(streams) : 0
            return Result(
                streams: streams, submissions: submissions, delivered: latencies.count,
                intervalMilliseconds: Int(interval.nanoseconds / 1e6), p50Milliseconds: percentile(0.5),
                p99Milliseconds: percentile(0.99), maxMilliseconds: latencies[latencies.count - 1],
                serverResidentBytesBefore: before, serverResidentBytesAfter: after, bytesPerIdleStream: perStream)
        }
    }

    /// `POST /kasia/transactions`; the receipt's `tx_id`.
    private func submit(_ submission: RelaySubmission, base: String, http: HTTPClient) async throws -> String {
        var request = HTTPClientRequest(url: base + APIPath.kasiaTransactions)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(submission)))
        let response = try await http.execute(request, timeout: .seconds(30))
        let body = Array(buffer: try await response.body.collect(upTo: 1 << 20))
        guard response.status == .ok, let txID = Self.txID(in: body) else {
            throw CLIError("relay bench: submission answered \(response.status.code)")
        }
        return txID
    }

    /// Opens `GET /kasia/stream?alias=…` in a task of `group` and returns once the server has
    /// written its `: connected` comment, which it does once the subscription exists. The task
    /// reads the stream until it ends or the group is cancelled; with `arrivals`, it records
    /// when each `"tx_id":"…"` first appears.
    private func open(
        alias: Alias, in group: inout ThrowingTaskGroup<Void, any Error>, http: HTTPClient,
        arrivals: ArrivalLog? = nil
    ) async throws {
        let url = "http://127.0.0.1:\(server.port)\(APIPath.kasiaStream)?alias=\(alias.indexerQueryParameter)"
        let (connected, connection) = AsyncThrowingStream.makeStream(of: Void.self)
        group.addTask { try await Self.follow(url, http: http, connected: connection, arrivals: arrivals) }
        for try await _ in connected { return }
        throw CLIError("relay bench: the stream for alias \(alias.indexerQueryParameter) sent nothing")
    }

    private static func follow(
        _ url: String, http: HTTPClient, connected: AsyncThrowingStream<Void, any Error>.Continuation,
        arrivals: ArrivalLog?
    ) async throws {
        let marker = Array(": connected".utf8)
        var isConnected = false
        var pending: [UInt8] = []
        do {
            let response = try await http.execute(HTTPClientRequest(url: url), timeout: .hours(1))
            guard response.status == .ok else {
                throw CLIError("relay bench: stream answered \(response.status.code)")
            }
            let clock = ContinuousClock()
            for try await chunk in response.body {
                let now = clock.now
                pending += Array(buffer: chunk)
                if !isConnected {
                    guard let at = find(marker, in: pending, from: 0) else { continue }
                    isConnected = true
                    connected.yield()
                    connected.finish()
                    pending.removeFirst(at + marker.count)
                }
                guard let arrivals else {
                    pending.removeAll(keepingCapacity: true)
                    continue
                }
                var consumed = 0
                while let found = txIDRange(in: pending, from: consumed) {
                    arrivals.record(String(decoding: pending[found], as: UTF8.self), at: now)
                    consumed = found.upperBound
                }
                // Keep a tail in case a key was cut between two chunks.
                let keep = max(consumed, pending.count - 128)
                if keep > 0 { pending.removeFirst(min(keep, pending.count)) }
            }
            connected.finish()
        } catch {
            // A stream the bench ends (cancellation, the server stopped) is not a failure.
            guard !isConnected else { return }
            connected.finish(throwing: error)
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count)
        where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }

    private static let txIDKey = Array("\"tx_id\":\"".utf8)

    private static func txIDRange(in bytes: [UInt8], from start: Int) -> Range<Int>? {
        guard let at = find(txIDKey, in: bytes, from: start) else { return nil }
        let lower = at + txIDKey.count
        guard bytes.count >= lower + 64 else { return nil }
        return lower..<(lower + 64)
    }

    static func txID(in body: [UInt8]) -> String? {
        txIDRange(in: body, from: 0).map { String(decoding: body[$0], as: UTF8.self) }
    }
}
