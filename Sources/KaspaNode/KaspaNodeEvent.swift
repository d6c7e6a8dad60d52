public import Foundation
public import KaspaRPC
import TandemBasics

/// What a consumer of ``KaspaNodeClient/events`` learns.
public enum KaspaNodeEvent: Sendable, Equatable {
    /// A node is connected and every subscription restored: re-read UTXOs and the chain now.
    case connected(node: URL, info: RPCServerInfo)
    case disconnected(node: URL, reason: String)
    case utxosChanged(RPCUtxosChanged)
    case virtualDaaScoreChanged(UInt64)
    /// Events were dropped because their consumer fell behind (or the node flooded): re-read
    /// UTXOs and the chain now, as after ``connected(node:info:)``.
    case resync
}

/// ``KaspaNodeClient/events``: a queue of at most ``KaspaNodeConfiguration/eventCapacity``
/// events (issue 50 item 2). A consumer that falls behind loses the oldest, and reads
/// ``KaspaNodeEvent/resync`` before what is left, so memory stays flat whatever a node sends
/// and nothing is silently missed.
public struct KaspaNodeEvents: AsyncSequence, Sendable {
    public typealias Element = KaspaNodeEvent

    /// Set by the producer when it drops an event; taken by the consumer.
    final class DropMark: Sendable {
        private let dropped = Locked(false)
        func mark() { dropped.withLock { $0 = true } }
        func take() -> Bool {
            dropped.withLock { value in
                defer { value = false }
                return value
            }
        }
    }

    let stream: AsyncStream<KaspaNodeEvent>
    let dropped: DropMark

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<KaspaNodeEvent>.AsyncIterator
        let dropped: DropMark

        public mutating func next() async -> KaspaNodeEvent? {
            if dropped.take() { return .resync }
            return await base.next()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), dropped: dropped)
    }
}

/// The connected node and its last known state.
public struct ServerInfoSnapshot: Sendable, Equatable {
    public var node: URL
    public var info: RPCServerInfo
    public var virtualDaaScore: UInt64

    public init(node: URL, info: RPCServerInfo) {
        self.node = node
        self.info = info
        virtualDaaScore = info.virtualDaaScore
    }
}
