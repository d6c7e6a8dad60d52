import CanonicalJSON
import Foundation

/// The state file written without `JSONEncoder` (issue 12 "Figures"): the file is saved after
/// every pulled page and holds a version and a digest per record, so encoding it with
/// `JSONEncoder` ten times took a sixth of a 10,000-record pull. The canonical JSON writer is an
/// order of magnitude faster; `SyncStateFile.load` reads either form with `JSONDecoder`.
extension ContactsSyncState {
    /// The file's bytes: canonical JSON of the same members the `Codable` form has (absent when
    /// nil). A version beyond 2^53, which a JSON number could not carry exactly, takes the
    /// `JSONEncoder` path instead.
    func fileBytes() throws -> Data {
        guard versions.values.allSatisfy({ $0.magnitude < 1 << 53 }) else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(self)
        }
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

    /// Keys in RFC 8785 member order, so `JSONObject` only checks the order instead of sorting
    /// 20,000 members on every save. Record ids are hex: for ASCII, Swift's `<` is byte order,
    /// which is the RFC's order, and much cheaper than the general comparison.
    static func inOrder<Value>(_ keys: Dictionary<String, Value>.Keys) -> [String] {
        keys.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } } ? keys.sorted() : keys.sorted(by: KeyOrder.precedes)
    }
}
