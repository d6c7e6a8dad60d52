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
        let versionMembers = versions.map { JSONObject.Member(key: $0.key, value: .number(Double($0.value))) }
        let digestMembers = digests.map { JSONObject.Member(key: $0.key, value: .string($0.value)) }
        members.append(.init(key: "versions", value: .object(try JSONObject(members: versionMembers))))
        members.append(.init(key: "digests", value: .object(try JSONObject(members: digestMembers))))
        return Data(try CanonicalJSON.canonicalBytes(of: .object(try JSONObject(members: members))))
    }
}
