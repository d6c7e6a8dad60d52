public import Foundation
import TandemBasics

/// Which node to try next and how long to wait first (issue 24 item 1, "Several nodes"): the
/// endpoints in order, moving on after each failure, waiting longer after each consecutive
/// failure up to a ceiling, back to no wait after a success. A value, driven without sockets or
/// clocks.
public struct NodeFailover: Sendable, Equatable {
    public let endpoints: [NodeEndpoint]
    public let backoff: NodeBackoff
    /// The endpoint the next attempt uses.
    public private(set) var index = 0
    /// Failures since the last success.
    public private(set) var consecutiveFailures = 0

    public init(endpoints: [NodeEndpoint], backoff: NodeBackoff = NodeBackoff()) {
        self.endpoints = endpoints
        self.backoff = backoff
    }

    /// The endpoint to try now.
    public var current: NodeEndpoint? { endpoints.isEmpty ? nil : endpoints[index % endpoints.count] }

    /// The current endpoint failed: move to the next; returns how long to wait before trying it.
    public mutating func failed() -> Duration {
        consecutiveFailures += 1
        if !endpoints.isEmpty { index = (index + 1) % endpoints.count }
        return backoff.delay(afterFailures: consecutiveFailures)
    }

    /// The current endpoint works: stay on it, and the next failure starts the backoff afresh.
    public mutating func succeeded() {
        consecutiveFailures = 0
    }

    /// True when every endpoint failed since the last success (one full round).
    public var exhaustedRound: Bool { !endpoints.isEmpty && consecutiveFailures >= endpoints.count }
}

/// Exponential backoff: `initial × 2^(failures − 1)`, at most `maximum`; the first try of a
/// round's next endpoint waits `initial`.
public struct NodeBackoff: Sendable, Equatable {
    public var initial: Duration
    public var maximum: Duration

    public init(initial: Duration = .milliseconds(200), maximum: Duration = .seconds(30)) {
        self.initial = initial
        self.maximum = maximum
    }

    public func delay(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        var delay = initial
        for _ in 1..<min(failures, 32) {
            delay *= 2
            if delay >= maximum { return maximum }
        }
        return min(delay, maximum)
    }
}

/// Where a node is: its wRPC JSON URL, or a Resolver that names a public node on each ask
/// (kaspa-node.md §1).
public enum NodeEndpoint: Sendable, Hashable, CustomStringConvertible {
    case node(URL)
    case resolver(URL)

    public var description: String {
        switch self {
        case .node(let url): URLRedaction.redact(url)
        case .resolver(let url): "resolver \(URLRedaction.redact(url))"
        }
    }
}
