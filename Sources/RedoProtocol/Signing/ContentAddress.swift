public import CanonicalJSON
import Crypto

/// Content ids (spec §3): SHA-256 over the JCS bytes of the node without `id` and `signature`.
public enum ContentAddress {
    /// The canonical body bytes, and how many of them the payload takes (spec §6.2 step 5).
    public struct Body: Sendable {
        public let bytes: [UInt8]
        public let payloadByteCount: Int
    }

    /// Writes the body of a node object: every member except `id` and `signature`, in JCS order.
    ///
    /// The payload's length is taken from the same pass (`data` is `{"payload":…}`), so the size
    /// limit costs nothing extra.
    public static func canonicalBody(of node: JSONObject) throws(NodeValidationError) -> Body {
        // Room for a typical node's body (about 1.2 KB) without growing the buffer on the way.
        var writer = CanonicalWriter(capacity: 2048)
        var payloadByteCount = 0
        var first = true
        do {
            try Self.write(node, into: &writer, payloadByteCount: &payloadByteCount, first: &first)
        } catch {
            throw .schemaMismatch("node cannot be canonicalized: \(error)")
        }
        return Body(bytes: writer.bytes, payloadByteCount: payloadByteCount)
    }

    private static func write(
        _ node: JSONObject, into writer: inout CanonicalWriter, payloadByteCount: inout Int,
        first: inout Bool
    ) throws(CanonicalJSONError) {
        writer.appendByte(UInt8(ascii: "{"))
        for member in node.members {
            let key = member.key
            if key == "id" || key == "signature" { continue }
            if !first { writer.appendByte(UInt8(ascii: ",")) }
            first = false
            writer.writeString(key)
            writer.appendByte(UInt8(ascii: ":"))
            let start = writer.bytes.count
            try writer.write(member.value)
            if key == "data" {
                // `{"payload":` is 11 bytes and the closing brace 1.
                payloadByteCount = writer.bytes.count - start - 12
            }
        }
        writer.appendByte(UInt8(ascii: "}"))
    }

    /// The members a content id leaves out.
    public static let omittedMembers = ["id", "signature"]

    /// The body of a node whose text was canonical, cut from that text
    /// (`JSONParser.parseNotingForm(_:omitting: omittedMembers)`): the same bytes
    /// `canonicalBody(of:)` writes, without writing them. Nil when the node has no `data`.
    public static func body(cutFrom text: CanonicalObjectText, of node: JSONObject) -> Body? {
        var kept = 0
        for member in node.members where member.key != "id" && member.key != "signature" {
            guard kept < text.valueRanges.count else { return nil }
            if member.key == "data" {
                // `{"payload":` is 11 bytes and the closing brace 1.
                return Body(bytes: text.bytes, payloadByteCount: text.valueRanges[kept].count - 12)
            }
            kept += 1
        }
        return nil
    }

    /// `sha256:` + hex of SHA-256 of canonical body bytes.
    public static func id(ofCanonicalBody body: [UInt8]) -> NodeID {
        SHA256.hash(data: body).withUnsafeBytes { NodeID(digestBytes: $0) }
    }

    /// The content id a node object should carry.
    public static func id(of node: JSONObject) throws(NodeValidationError) -> NodeID {
        id(ofCanonicalBody: try canonicalBody(of: node).bytes)
    }
}
