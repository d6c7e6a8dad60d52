import Foundation
import TandemBasics
public import TandemServerStore

/// What `/health` and the metrics say about the chain index (issue 25 item 3), written by the
/// ingester and read by any request; never awaited, so a stuck node cannot hold the API.
public final class KasiaChainStatus: Sendable {
    public struct Snapshot: Sendable, Equatable {
        /// `ingester` while this instance follows the node, `standby` while another does.
        public enum Role: String, Sendable { case ingester, standby }
        public var role: Role = .standby
        /// The node in use; nil while none answers.
        public var node: String?
        /// The index has read the node's chain to its sink, and the node says it is synced.
        public var synced = false
        /// The node's virtual DAA score minus the cursor's (one block per DAA step); nil
        /// while unknown.
        public var lagBlocks: UInt64?
        public var cursor: KasiaChainCursor?
        /// The last failure, until the next page succeeds.
        public var lastError: String?
        /// Failed steps (node or store) since the server started.
        public var failures = 0
    }

    private let state = Locked(Snapshot())

    public init() {}

    public var snapshot: Snapshot { state.withLock { $0 } }

    func update(_ change: (inout Snapshot) -> Void) { state.withLock { change(&$0) } }
}
