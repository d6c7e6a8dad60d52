import Foundation

/// When each `tx_id` first reached the watching stream; written by the reader thread, read
/// by the submitter.
final class ArrivalLog: @unchecked Sendable {
    private let lock = NSLock()
    private var arrivals: [String: ContinuousClock.Instant] = [:]

    func record(_ txID: String, at instant: ContinuousClock.Instant) {
        lock.withLock { if arrivals[txID] == nil { arrivals[txID] = instant } }
    }

    var count: Int { lock.withLock { arrivals.count } }
    var snapshot: [String: ContinuousClock.Instant] { lock.withLock { arrivals } }
}
