import BenchSupport
import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemAPI

/// Submit → stream delivery latency with many open streams, and the server's memory per idle
/// stream (issue 11 "Figures").
///
/// `streams` idle Server-Sent-Events connections each watch their own alias; one more watches
/// the measured alias. Messages on that alias are submitted at a steady pace from another
/// connection; a submission's latency runs from just before its request is written to the
/// moment its `tx_id` is read from the watcher's socket. Resident memory of the server
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

    func run() throws -> Result {
        let key = try RelayBenchFixtures.key(5)
        let measured = try RelayBenchFixtures.alias(0)
        // Warm the server up (first stream, first submissions) before reading its memory.
        try warmUp(key: key)
        Thread.sleep(forTimeInterval: 0.5)
        let before = try server.residentBytes()
        var idle: [LoopbackHTTPConnection] = []
        idle.reserveCapacity(streams)
        for index in 0..<streams {
            let alias = try RelayBenchFixtures.alias(index + 1).indexerQueryParameter
            idle.append(try openStream(alias: alias))
        }
        Thread.sleep(forTimeInterval: 0.5)
        let after = try server.residentBytes()

        let watcher = try openStream(alias: measured.indexerQueryParameter)
        let arrivals = ArrivalLog()
        let stop = StopFlag()
        let reader = Thread { Self.watch(watcher, arrivals: arrivals, stop: stop) }
        reader.start()

        let submitter = try LoopbackHTTPConnection(port: server.port)
        let clock = ContinuousClock()
        var sent: [(String, ContinuousClock.Instant)] = []
        var next = clock.now
        for nonce in 0..<submissions {
            let body = try JSONEncoder().encode(
                try RelayBenchFixtures.submission(key: key, alias: measured, nonce: 1_000_000 + UInt64(nonce)))
            let wait = next - clock.now
            if wait > .zero { Thread.sleep(forTimeInterval: wait.nanoseconds / 1e9) }
            let start = clock.now
            let response = try submitter.post(APIPath.kasiaTransactions, json: Array(body))
            guard response.status == 200, let txID = Self.txID(in: response.body) else {
                throw CLIError("relay bench: submission answered \(response.status)")
            }
            sent.append((txID, start))
            next = next.advanced(by: interval)
        }
        let deadline = clock.now.advanced(by: .seconds(5))
        while arrivals.count < sent.count && clock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        stop.set()
        while !stop.readerDone { Thread.sleep(forTimeInterval: 0.01) }
        withExtendedLifetime(idle) {}

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

    private func warmUp(key: PrivateKey) throws {
        let alias = try RelayBenchFixtures.alias(999_999)
        let stream = try openStream(alias: alias.indexerQueryParameter)
        let connection = try LoopbackHTTPConnection(port: server.port)
        for nonce in 0..<20 {
            let body = try JSONEncoder().encode(
                try RelayBenchFixtures.submission(key: key, alias: alias, nonce: 500_000 + UInt64(nonce)))
            _ = try connection.post(APIPath.kasiaTransactions, json: Array(body))
        }
        withExtendedLifetime(stream) {}
    }

    /// Opens `GET /kasia/stream?alias=…` and waits for the server's `: connected` comment,
    /// which it writes once the subscription exists.
    private func openStream(alias: String) throws -> LoopbackHTTPConnection {
        let connection = try LoopbackHTTPConnection(port: server.port, receiveTimeout: .seconds(5))
        let status = try connection.startGet(APIPath.kasiaStream + "?alias=" + alias)
        guard status == 200 else { throw CLIError("relay bench: stream answered \(status)") }
        var received: [UInt8] = []
        let marker = Array(": connected".utf8)
        while LoopbackHTTPConnection.find(marker, in: received) == nil {
            guard let bytes = try connection.readSome(), !bytes.isEmpty else {
                throw CLIError("relay bench: stream for alias \(alias) sent nothing")
            }
            received += bytes
        }
        return connection
    }

    /// The watcher thread: records when each `"tx_id":"…"` first appears on the socket.
    private static func watch(_ connection: LoopbackHTTPConnection, arrivals: ArrivalLog, stop: StopFlag) {
        let clock = ContinuousClock()
        var pending: [UInt8] = []
        while !stop.isSet {
            guard let bytes = try? connection.readSome() else { break }
            if bytes.isEmpty { continue }
            let now = clock.now
            pending += bytes
            var consumed = 0
            while let found = txIDRange(in: pending, from: consumed) {
                arrivals.record(String(decoding: pending[found], as: UTF8.self), at: now)
                consumed = found.upperBound
            }
            // Keep a tail in case a key was cut between two reads.
            let keep = max(consumed, pending.count - 128)
            if keep > 0 { pending.removeFirst(min(keep, pending.count)) }
        }
        stop.finishReading()
    }

    private static let txIDKey = Array("\"tx_id\":\"".utf8)

    private static func txIDRange(in bytes: [UInt8], from start: Int) -> Range<Int>? {
        guard let at = LoopbackHTTPConnection.find(txIDKey, in: bytes, from: start) else { return nil }
        let lower = at + txIDKey.count
        guard bytes.count >= lower + 64 else { return nil }
        return lower..<(lower + 64)
    }

    static func txID(in body: [UInt8]) -> String? {
        txIDRange(in: body, from: 0).map { String(decoding: body[$0], as: UTF8.self) }
    }
}
