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
        var payloadByteCount = 0
        let bytes: [UInt8]
        do {
            // Room for a typical node's body (about 1.2 KB) in one pass.
            bytes = try CanonicalWriter.bytes(capacity: 2048) { output throws(CanonicalJSONError) in
                payloadByteCount = try Self.write(node, into: &output)
            }
        } catch {
            throw .schemaMismatch("node cannot be canonicalized: \(error)")
        }
        return Body(bytes: bytes, payloadByteCount: payloadByteCount)
    }

    /// Writes the body; returns the payload's length.
    private static func write(_ node: JSONObject, into output: inout CanonicalOutput) throws(CanonicalJSONError)
        -> Int
    {
        var payloadByteCount = 0
        output.appendByte(UInt8(ascii: "{"))
        var first = true
        for member in node.members {
            let key = member.key
            if isOmitted(key) { continue }
            if !first { output.appendByte(UInt8(ascii: ",")) }
            first = false
            output.writeString(key)
            output.appendByte(UInt8(ascii: ":"))
            let start = output.count
            try output.write(member.value)
            if key.utf8.count == 4 && key == "data" {
                // `{"payload":` is 11 bytes and the closing brace 1.
                payloadByteCount = output.count - start - 12
            }
        }
        output.appendByte(UInt8(ascii: "}"))
        return payloadByteCount
    }

    /// `id` or `signature`; the length is compared first, which settles almost every name.
    private static func isOmitted(_ key: String) -> Bool {
        switch key.utf8.count {
        case 2: key == "id"
        case 9: key == "signature"
        default: false
        }
    }

    /// The members a content id leaves out.
    public static let omittedMembers = ["id", "signature"]

    /// The body of a node whose text was canonical, cut from that text
    /// (`JSONParser.parseNotingForm(_:omitting: omittedMembers)`): the same bytes
    /// `canonicalBody(of:)` writes, without writing them. Nil when the node has no `data`.
    public static func body(cutFrom text: CanonicalObjectText, of node: JSONObject) -> Body? {
        var kept = 0
        for member in node.members where !isOmitted(member.key) {
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
        id(of: SHA256.hash(data: body))
    }

    private static func id(of digest: SHA256.Digest) -> NodeID {
        digest.withUnsafeBytes { NodeID(digestBytes: $0) }
    }

    /// The content id a node object should carry.
    ///
    /// The body is streamed into the hash from stack memory: no array is made for it.
    public static func id(of node: JSONObject) throws(NodeValidationError) -> NodeID {
        var hasher = SHA256()
        do {
            try CanonicalWriter.stream { output throws(CanonicalJSONError) in
                _ = try Self.write(node, into: &output)
            } into: { chunk in
                hasher.update(bufferPointer: chunk)
            }
        } catch {
            throw .schemaMismatch("node cannot be canonicalized: \(error)")
        }
        return id(of: hasher.finalize())
    }
}
