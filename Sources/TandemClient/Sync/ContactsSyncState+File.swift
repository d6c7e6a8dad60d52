import CanonicalJSON
import Foundation

/// The state file written without `JSONEncoder` (issue 12 "Figures"): the file is saved after
/// every pulled page and holds a version and a digest per record, so encoding it with
/// `JSONEncoder` ten times took a sixth of a 10,000-record pull. `SyncStateFile.load` reads
/// either form with `JSONDecoder`.
extension ContactsSyncState {
    /// The file's bytes: canonical JSON (RFC 8785) of the same members the `Codable` form has
    /// (absent when nil). A version beyond 2^53, which a JSON number could not carry exactly,
    /// takes the `JSONEncoder` path instead.
    func fileBytes() throws -> Data {
        guard versions.values.allSatisfy({ $0.magnitude < 1 << 53 }) else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(self)
        }
        if let bytes = plainBytes() { return Data(bytes) }
        return try canonicalValueBytes()
    }

    /// The canonical writer's bytes, through a `JSONValue` of every member: the reference the
    /// plain writer must equal, and the path for ids or digests that need escaping.
    func canonicalValueBytes() throws -> Data {
        var members: [JSONObject.Member] = []
        for (key, value) in [("accountID", accountID), ("cursor", cursor), ("server", server), ("wallet", wallet)] {
            if let value { members.append(.init(key: key, value: .string(value))) }
        }
        let versionMembers = Self.inOrder(versions.keys).map {
            JSONObject.Member(key: $0, value: .number(Double(versions[$0] ?? 0)))
        }
        let digestMembers = Self.inOrder(digests.keys).map {
            JSONObject.Member(key: $0, value: .string(digests[$0] ?? ""))
        }
        members.append(.init(key: "versions", value: .object(try JSONObject(members: versionMembers))))
        members.append(.init(key: "digests", value: .object(try JSONObject(members: digestMembers))))
        return Data(try CanonicalJSON.canonicalBytes(of: .object(try JSONObject(members: members))))
    }

    /// The canonical bytes written directly, or nil when a record id or digest is not plain
    /// ASCII. Record ids and digests are 64 hex digits, which RFC 8785 writes as they are and
    /// orders by their bytes; the four short strings go through the canonical writer. The keys
    /// are sorted once when both maps hold the same ids (they are set together).
    func plainBytes() -> [UInt8]? {
        guard versions.keys.allSatisfy(Self.isPlain),
            digests.allSatisfy({ Self.isPlain($0.key) && Self.isPlain($0.value) })
        else { return nil }
        let versionKeys = versions.keys.sorted()
        let sameKeys = digests.count == versions.count && versionKeys.allSatisfy { digests[$0] != nil }
        let digestKeys = sameKeys ? versionKeys : digests.keys.sorted()
        var out: [UInt8] = []
        out.reserveCapacity(versionKeys.count * 80 + digestKeys.count * 140 + 512)
        var first = true
        func member(_ name: String) {
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            quoted(name)
            out.append(UInt8(ascii: ":"))
        }
        func quoted(_ plain: String) {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: plain.utf8)
            out.append(UInt8(ascii: "\""))
        }
        func string(_ name: String, _ value: String?) -> Bool {
            guard let value else { return true }
            guard let bytes = try? CanonicalJSON.canonicalBytes(of: .string(value)) else { return false }
            member(name)
            out.append(contentsOf: bytes)
            return true
        }
        func map(_ keys: [String], _ value: (String) -> Void) {
            out.append(UInt8(ascii: "{"))
            for (index, key) in keys.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                quoted(key)
                out.append(UInt8(ascii: ":"))
                value(key)
            }
            out.append(UInt8(ascii: "}"))
        }
        // RFC 8785 member order of the six names: accountID, cursor, digests, server, versions, wallet.
        guard string("accountID", accountID), string("cursor", cursor) else { return nil }
        member("digests")
        map(digestKeys) { quoted(digests[$0] ?? "") }
        guard string("server", server) else { return nil }
        member("versions")
        map(versionKeys) { out.append(contentsOf: String(versions[$0] ?? 0).utf8) }
        guard string("wallet", wallet) else { return nil }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Printable ASCII with no quote or backslash: RFC 8785 writes it unescaped, and for it
    /// Swift's `<` on `String` is byte order, which is the RFC's member order.
    static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    /// Keys in RFC 8785 member order, so `JSONObject` only checks the order instead of sorting
    /// 20,000 members on every save. Record ids are hex: for ASCII, Swift's `<` is byte order,
    /// which is the RFC's order, and much cheaper than the general comparison.
    static func inOrder<Value>(_ keys: Dictionary<String, Value>.Keys) -> [String] {
        keys.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } } ? keys.sorted() : keys.sorted(by: KeyOrder.precedes)
    }
}
