import CanonicalJSON
import Foundation

/// The state file written without `JSONEncoder` (issue 12 "Figures"): the file is saved several
/// times during a pull and after each pushed batch, and holds a version and a digest per record,
/// so encoding it with `JSONEncoder` after each of ten pages took a sixth of a 10,000-record pull.
/// `SyncStateFile.load` reads either form with `JSONDecoder`.
extension ContactsSyncState {
    /// The file's bytes: canonical JSON (RFC 8785) of the same members the `Codable` form has
    /// (absent when nil). A version beyond 2^53, which a JSON number could not carry exactly,
    /// takes the `JSONEncoder` path instead.
    func fileBytes() throws -> Data {
        guard versions.values.allSatisfy({ $0.magnitude < 1 << 53 }) else { return try SyncStateFile.bytes(of: self) }
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
    /// orders by their bytes; the four short strings go through the canonical writer. When both
    /// maps hold the same ids (they are set together) the ids are sorted once, with their
    /// version and digest beside them, so the file is written without a lookup per member.
    func plainBytes() -> [UInt8]? {
        var short: [String: [UInt8]] = [:]
        for (name, value) in [("accountID", accountID), ("cursor", cursor), ("server", server), ("wallet", wallet)] {
            guard let value else { continue }
            guard let bytes = try? CanonicalJSON.canonicalBytes(of: .string(value)) else { return nil }
            short[name] = bytes
        }
        var entries: [(id: String, version: Int64, digest: String)] = []
        entries.reserveCapacity(versions.count)
        var digestsMatch = digests.count == versions.count
        for (id, version) in versions {
            guard Self.isPlain(id) else { return nil }
            let digest = digests[id]
            if digest == nil { digestsMatch = false }
            entries.append((id, version, digest ?? ""))
        }
        guard digests.allSatisfy({ Self.isPlain($0.key) && Self.isPlain($0.value) }) else { return nil }
        entries.sort { $0.id < $1.id }
        let digestEntries =
            digestsMatch
            ? entries.map { ($0.id, $0.digest) } : digests.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        var out: [UInt8] = []
        out.reserveCapacity(entries.count * 80 + digestEntries.count * 140 + 512)
        out.append(UInt8(ascii: "{"))
        // RFC 8785 member order of the six names: accountID, cursor, digests, server, versions, wallet.
        Self.member("accountID", short["accountID"], &out)
        Self.member("cursor", short["cursor"], &out)
        Self.name("digests", &out)
        out.append(UInt8(ascii: "{"))
        for (index, (id, digest)) in digestEntries.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            Self.quoted(id, &out)
            out.append(UInt8(ascii: ":"))
            Self.quoted(digest, &out)
        }
        out.append(UInt8(ascii: "}"))
        Self.member("server", short["server"], &out)
        Self.name("versions", &out)
        out.append(UInt8(ascii: "{"))
        for (index, entry) in entries.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            Self.quoted(entry.id, &out)
            out.append(UInt8(ascii: ":"))
            out.append(contentsOf: String(entry.version).utf8)
        }
        out.append(UInt8(ascii: "}"))
        Self.member("wallet", short["wallet"], &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `"name":` after a `,` unless it is the object's first member.
    private static func name(_ name: String, _ out: inout [UInt8]) {
        if out.count > 1 { out.append(UInt8(ascii: ",")) }
        quoted(name, &out)
        out.append(UInt8(ascii: ":"))
    }

    /// A member whose value is already written as canonical bytes; nothing when absent.
    private static func member(_ name: String, _ value: [UInt8]?, _ out: inout [UInt8]) {
        guard let value else { return }
        self.name(name, &out)
        out.append(contentsOf: value)
    }

    /// A plain string in quotes.
    private static func quoted(_ plain: String, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: plain.utf8)
        out.append(UInt8(ascii: "\""))
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
