public import Foundation

/// One device key of the account, as `GET /api/me/keys` lists it. A revoked key stays listed
/// with `revokedAt`: it may push no more nodes, but nodes it signed stay valid (spec §11.3).
public struct DeviceKey: Codable, Sendable, Equatable {
    public var publicKey: String
    public var createdAt: Date
    public var revokedAt: Date?

    public init(publicKey: String, createdAt: Date, revokedAt: Date? = nil) {
        self.publicKey = publicKey
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}

/// `GET /api/me/keys`: `{"keys": [...]}`, oldest first.
public struct DeviceKeyList: Codable, Sendable, Equatable {
    public var keys: [DeviceKey]

    public init(keys: [DeviceKey]) { self.keys = keys }
}
