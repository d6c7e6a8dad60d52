import BenchSupport
import Foundation
import KasiaProtocol
import TandemAPI
import TandemBasics
import TandemServerStore

/// The relay's store alone, in this process (issue 29, the relay's CPU split): the server's own
/// `SQLiteServerStore` (its migrations, indexes, group committer and GRDB writer) takes the
/// rows of `POST /kasia/transactions` from `connections` concurrent tasks, as the handlers
/// hand them over, with no HTTP, parsing or verify. The figure is this process's CPU (user +
/// system, every thread) per stored row, beside raw BIP-340 verifies sampled in turn on the
/// same cores. Subtracted from the server's CPU per submission it leaves what the request path
/// costs apart from storing.
struct RelayStoreAlone {
    struct Result: Encodable {
        var connections: Int
        var samples: Int
        var rowsPerSample: Int
        var senders: Int
        /// Median CPU per stored row, µs.
        var cpuMicrosecondsPerRow: Double
        /// Median raw verify, µs.
        var verifyMicroseconds: Double
        /// cpuMicrosecondsPerRow ÷ verifyMicroseconds.
        var ratio: Double
    }

    let connections: Int
    let samples: Int
    let rowsPerSample: Int
    /// Distinct signing keys, taken in turn (many senders, as `scripts/relay-cpu` sends); at most
    /// 155, since their seeds run from 100 to 254 (`RelayBenchFixtures.key` takes one byte).
    /// The tasks are `connections`, the relay lanes' connections (not `--wrk-connections`).
    let senders: Int

    func run(directory: URL, verifyIterations: Int) async throws -> Result {
        let file = directory.appendingPathComponent("store-alone.sqlite")
        let store = try SQLiteServerStore(fileURL: file)
        let drafts = try Self.drafts(count: rowsPerSample * (samples + 1), senders: senders)
        let verifier = try RelaySubmissionLoad.RawVerifier()
        let (connections, rowsPerSample, samples) = (connections, rowsPerSample, samples)
        let (cpu, verify) = try await store.withServices { () async throws -> ([Double], [Double]) in
            var cpu: [Double] = []
            var verify: [Double] = []
            // Sample 0 warms up and is discarded.
            for sample in 0...samples {
                let verifyTime = try verifier.measure(verifyIterations)
                let slice = Array(drafts[(sample * rowsPerSample)..<((sample + 1) * rowsPerSample)])
                let before = RelaySubmissionLoad.ownCPUSeconds()
                let inserted = try await withThrowingTaskGroup(of: Int.self) { group in
                    for lane in 0..<connections {
                        group.addTask {
                            var inserted = 0
                            for index in stride(from: lane, to: slice.count, by: connections) {
                                let outcome = try await store.appendKasiaRecord(
                                    slice[index], now: UnixMillis(Int64(Date().timeIntervalSince1970 * 1000)))
                                if case .inserted = outcome { inserted += 1 }
                            }
                            return inserted
                        }
                    }
                    return try await group.reduce(0, +)
                }
                let used = RelaySubmissionLoad.ownCPUSeconds() - before
                guard inserted == slice.count else {
                    throw CLIError("relay bench: \(slice.count - inserted) of \(slice.count) rows were not new")
                }
                guard sample > 0 else { continue }
                cpu.append(used * 1e6 / Double(slice.count))
                verify.append(verifyTime.nanoseconds / 1e3 / Double(verifyIterations))
            }
            return (cpu, verify)
        }
        let row = RelaySubmissionLoad.median(cpu)
        let verifyMedian = RelaySubmissionLoad.median(verify)
        return Result(
            connections: connections, samples: samples, rowsPerSample: rowsPerSample, senders: senders,
            cpuMicrosecondsPerRow: row, verifyMicroseconds: verifyMedian, ratio: row / verifyMedian)
    }

    /// The rows the relay stores for `count` signed contextual messages, keys taken in turn.
    static func drafts(count: Int, senders: Int) throws -> [KasiaRecordDraft] {
        let keys = try (0..<senders).map { try RelayBenchFixtures.key(UInt8(truncatingIfNeeded: 100 + $0)) }
        let alias = try RelayBenchFixtures.alias(79)
        let firstNonce = UInt64(Date().timeIntervalSince1970 * 1000) << 20
        return try (0..<count).map { index in
            try RelayBenchFixtures.draft(
                RelayBenchFixtures.submission(
                    key: keys[index % senders], alias: alias, nonce: firstNonce + UInt64(index)),
                alias: alias)
        }
    }
}

extension RelayBenchFixtures {
    /// The row `POST /kasia/transactions` stores for a signed contextual message.
    static func draft(_ submission: RelaySubmission, alias: Alias) throws -> KasiaRecordDraft {
        let payload = try Hex.decode(submission.payload)
        return KasiaRecordDraft(
            txID: submission.digest(payloadBytes: payload).txID, kind: .contextualMessage, sender: submission.sender,
            receiver: nil, amount: 0, tag: alias.indexerQueryParameter,
            body: try KasiaPayload(parsing: payload).indexerStoredBody, payload: payload, nonce: submission.nonce,
            signature: submission.signature)
    }
}
