import BenchSupport
import KaspaNode
import TandemBasics

/// What the bench's consumer of `node.events` has applied to the wallet, and when each
/// `wallet.apply(event)` returned, for the measuring task to wait on without polling (polling
/// would add its own wake-ups to the CPU being measured).
final class WalletProbe: Sendable {
    enum Kind: Sendable, Hashable {
        case connected, disconnected, utxosChanged, virtualDaaScoreChanged
        /// The client dropped events for a consumer behind (none in this bench's pace).
        case resync
        /// `apply` threw.
        case failed

        init(_ event: KaspaNodeEvent) {
            switch event {
            case .connected: self = .connected
            case .disconnected: self = .disconnected
            case .utxosChanged: self = .utxosChanged
            case .virtualDaaScoreChanged: self = .virtualDaaScoreChanged
            case .resync: self = .resync
            }
        }
    }

    private let arrivals = Arrivals<Kind>()
    private let recordedFailures = Locked<[String]>([])

    /// An apply of `kind` returned just now.
    func record(_ kind: Kind, failure: String? = nil) {
        if let failure { recordedFailures.withLock { $0.append(failure) } }
        arrivals.record(kind)
    }

    /// How many applies of `kind` have returned.
    func count(_ kind: Kind) -> Int { arrivals.count(kind) }

    /// What `apply` threw, in order.
    var failures: [String] { recordedFailures.withLock { $0 } }

    /// Waits until the `count`-th apply of `kind` (counted from the start) has returned; answers
    /// when it did. Throws after `timeout`.
    func instant(of kind: Kind, number count: Int, timeout: Duration) async throws -> ContinuousClock.Instant {
        guard let instant = try await arrivals.instant(of: kind, number: count, timeout: timeout) else {
            throw CLIError("wallet-node bench: no \(kind) event applied within \(timeout) (failures: \(failures))")
        }
        return instant
    }
}
