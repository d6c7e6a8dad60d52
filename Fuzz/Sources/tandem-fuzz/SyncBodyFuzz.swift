import CanonicalJSON
import Foundation
import RedoProtocol
import TandemBasics

@testable import TandemServer

/// The bodies of `POST /api/redo/nodes` and `PUT /api/contacts/records` (issue 12), read under
/// the sync routes' caps and checked element by element as the controllers do. A node that
/// passes validates again from its canonical text with the same id; a contact record draft
/// always has a 64-hex id, a box within the cap and a non-negative base version.
enum SyncBodyFuzz {
    static let limits = JSONParser.Limits(maxBytes: SyncLimits.maxBodyBytes, maxDepth: SyncLimits.maxJSONDepth)

    static func run(_ bytes: [UInt8]) {
        // Read as the push reads it: the nodes' texts noted where they were canonical.
        guard let read = try? JSONParser(limits: limits).parseNotingElements(bytes, ofMember: "nodes"),
            case .object(let body) = read.value
        else { return }
        if case .array(let nodes)? = body["nodes"] {
            for (index, element) in nodes.prefix(SyncLimits.maxNodesPerPush).enumerated() {
                checkNode(element, sent: read.elements.count == nodes.count ? read.elements[index].canonicalText : nil)
            }
        }
        if case .array(let records)? = body["records"] {
            for (index, element) in records.prefix(SyncLimits.maxRecordsPerPut).enumerated() {
                checkRecord(element, index: index)
            }
        }
    }

    /// `sent`: the node's text as sent, when it was canonical (what the push stores then).
    static func checkNode(_ element: JSONValue, sent: [UInt8]?) {
        guard let node = try? RedoNodesController.validator.validate(element) else { return }
        invariant(node.signature != nil, "the push path accepted an unsigned node")
        guard let text = try? CanonicalJSON.canonicalBytes(of: .object(node.json)) else {
            return invariant(false, "an accepted node has no canonical text")
        }
        invariant(sent == nil || sent == text, "a node's text as sent is stored, and it is not its canonical text")
        invariant(
            (try? RedoNodesController.validator.validate(bytes: text))?.id == node.id,
            "an accepted node's canonical text validates differently")
    }

    static func checkRecord(_ element: JSONValue, index: Int) {
        guard let draft = try? SealedRecordsController.draft(element, index: index, invalid: .invalidContactRecord)
        else {
            return
        }
        invariant(Hex.decodeLowercase(draft.id, byteCount: 32) != nil, "a record id is not 64 lowercase hex")
        invariant(!draft.box.isEmpty && draft.box.count <= SyncLimits.maxBoxBytes, "a box outside its cap")
        invariant(draft.baseVersion >= 0, "a negative base version")
    }
}
