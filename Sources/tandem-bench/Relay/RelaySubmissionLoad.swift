import Foundation
import KaspaCrypto
import TandemAPI

/// Submissions/s through `POST /kasia/transactions` against raw BIP-340 verifies/s, sampled
/// in turn (issue 11 "Figures"): one verify sample, then one load sample, and so on, so a
/// burst of load from other processes lands on both.
///
/// A load sample sends the next slice of pre-signed bodies over `connections` keep-alive
/// connections, one thread each, and counts the slice over its wall time. The server answers
/// each after the signature check and the SQLite (or PostgreSQL) insert.
struct RelaySubmissionLoad {
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
    }

    let port: Int
    let connections: Int
    let samples: Int

    func run(bodies: [[UInt8]], verifyIterations: Int) throws -> Result {
        let key = try RelayBenchFixtures.key(9)
        let digest = RelayDigest(sender: "bench", receiver: nil, amount: nil, nonce: 1, payload: [1, 2, 3]).bytes
        let signature = try key.signature(for: digest)
        let publicKey = key.xOnlyPublicKey
        let perSample = bodies.count / (samples + 1)
        guard perSample >= connections else { throw CLIError("--requests: at least \(connections * (samples + 1))") }
        let clock = ContinuousClock()
        var verifyRates: [Double] = []
        var submitRates: [Double] = []
        var non200 = 0
        // Sample 0 warms both up and is discarded.
        for sample in 0...samples {
            var valid = 0
            let verifyTime = clock.measure {
                for _ in 0..<verifyIterations where publicKey.isValidSignature(signature, for: digest) { valid += 1 }
            }
            guard valid == verifyIterations else {
                throw CLIError("relay bench: the baseline signature did not verify")
            }
            let slice = Array(bodies[(sample * perSample)..<((sample + 1) * perSample)])
            let (elapsed, failures) = try load(slice)
            if sample > 0 {
                verifyRates.append(Double(verifyIterations) / (verifyTime.nanoseconds / 1e9))
                submitRates.append(Double(slice.count) / (elapsed.nanoseconds / 1e9))
                non200 += failures
            }
        }
        verifyRates.sort()
        submitRates.sort()
        let verify = verifyRates[verifyRates.count / 2]
        let submit = submitRates[submitRates.count / 2]
        return Result(
            connections: connections, samples: samples, submissionsPerSample: perSample, submissionsPerSecond: submit,
            bestSubmissionsPerSecond: submitRates.last ?? submit, verifiesPerSecond: verify,
            bestVerifiesPerSecond: verifyRates.last ?? verify, ratio: submit / verify, non200: non200)
    }

    /// Sends `slice` over the connections; returns the wall time and the non-200 count.
    private func load(_ slice: [[UInt8]]) throws -> (Duration, Int) {
        let tally = LoadTally()
        let group = DispatchGroup()
        let (port, connections) = (port, connections)
        let clock = ContinuousClock()
        let start = clock.now
        for lane in 0..<connections {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                do {
                    let connection = try LoopbackHTTPConnection(port: port)
                    var failures = 0
                    for index in stride(from: lane, to: slice.count, by: connections) {
                        let response = try connection.post(APIPath.kasiaTransactions, json: slice[index])
                        if response.status != 200 { failures += 1 }
                    }
                    tally.add(failures: failures)
                } catch {
                    tally.fail(String(describing: error))
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        let elapsed = clock.now - start
        if let error = tally.error { throw CLIError(error) }
        return (elapsed, tally.failures)
    }
}
