import BenchSupport
import TandemBasics

/// When each `tx_id` first reached the watching stream; written by the reader thread, read
/// by the submitter.
final class ArrivalLog: Sendable {
    private let arrivals = Locked<[String: ContinuousClock.Instant]>([:])

    func record(_ txID: String, at instant: ContinuousClock.Instant) {
        arrivals.withLock { if $0[txID] == nil { $0[txID] = instant } }
    }

    var count: Int { arrivals.withLock { $0.count } }
    var snapshot: [String: ContinuousClock.Instant] { arrivals.withLock { $0 } }
}
