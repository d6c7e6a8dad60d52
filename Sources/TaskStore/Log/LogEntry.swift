import CanonicalJSON
public import RedoProtocol

/// A node with the canonical text the log stores for it (spec §11.3: every node verbatim, in its
/// canonical form), computed once, when the entry is made.
///
/// The text is only ever made here, from the node itself, so an entry cannot pair a node with
/// another node's text. Making entries is the one per-node cost of an append besides the insert,
/// so a sync pull makes them on the cores that validate the nodes (issue 12 "Figures": a new
/// device's 10,000-node pull under 1 s) and the store's single writer only inserts them.
public struct LogEntry: Sendable {
    public let node: RedoNode
    /// `JCS(node)`, the bytes stored in `node.json`.
    let text: [UInt8]

    public init(_ node: RedoNode) throws {
        self.node = node
        self.text = try CanonicalJSON.canonicalBytes(of: .object(node.json))
    }
}
