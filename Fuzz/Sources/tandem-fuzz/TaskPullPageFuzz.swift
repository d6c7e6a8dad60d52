import CanonicalJSON
import Foundation
import RedoProtocol
import TaskStore

@testable import TandemSync

/// A page of `GET /api/redo/nodes` as the task sync reads it (issue 12 item 4): the page's
/// shape (``TaskSync/parse(_:)``), then each node validated with the sync's own validator
/// (signatures required) and made into the log entry the pull stores.
///
/// A node the pull keeps has a canonical text, and that text validates again to the same node
/// id: what the log stores is what was verified. No page traps, whatever its shape.
enum TaskPullPageFuzz {
    static func run(_ bytes: [UInt8]) {
        guard let page = try? TaskSync.parse(Data(bytes)) else { return }
        for element in page.nodes.prefix(1000) {
            guard let node = try? TaskSync.validator.validate(element) else { continue }
            invariant(node.signature != nil, "the pull kept an unsigned node")
            guard let entry = try? LogEntry(node) else {
                return invariant(false, "a valid pulled node has no log entry")
            }
            guard let text = try? CanonicalJSON.canonicalBytes(of: .object(entry.node.json)) else {
                return invariant(false, "a stored node has no canonical text")
            }
            invariant(
                (try? TaskSync.validator.validate(bytes: text))?.id == node.id,
                "a pulled node's canonical text validates to another node")
        }
    }
}
