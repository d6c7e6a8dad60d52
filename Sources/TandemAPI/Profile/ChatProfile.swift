public import Foundation

/// The chat profile (`users` table) of the signed-in account: what other chat users see.
/// It is keyed by the auth user and never addressed by id on the wire (`/api/me/profile`).
public struct ChatProfile: Codable, Sendable, Equatable {
    public var userId: String
    public var displayName: String
    public var kaspaAddress: String?
    public var publicKeys: [String]
    public var updatedAt: Date

    public init(userId: String, displayName: String, kaspaAddress: String?, publicKeys: [String], updatedAt: Date) {
        self.userId = userId
        self.displayName = displayName
        self.kaspaAddress = kaspaAddress
        self.publicKeys = publicKeys
        self.updatedAt = updatedAt
    }

    private enum CodingKeys: String, CodingKey { case userId, displayName, kaspaAddress, publicKeys, updatedAt }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(userId, forKey: .userId)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(kaspaAddress, forKey: .kaspaAddress)
        try container.encode(publicKeys, forKey: .publicKeys)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}

/// `PUT /api/me/profile` body: fields to replace; absent fields stay as they are, and a
/// `kaspaAddress` of `null` clears the address.
public struct ChatProfileUpdate: RequestBody {
    public var displayName: String?
    public var kaspaAddress: Clearable<String>?
    public var publicKeys: [String]?

    public init(displayName: String? = nil, kaspaAddress: Clearable<String>? = nil, publicKeys: [String]? = nil) {
        self.displayName = displayName
        self.kaspaAddress = kaspaAddress
        self.publicKeys = publicKeys
    }

    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case displayName, kaspaAddress, publicKeys
    }

    public typealias Field = CodingKeys

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        if !container.contains(.kaspaAddress) {
            kaspaAddress = nil
        } else if try container.decodeNil(forKey: .kaspaAddress) {
            kaspaAddress = .clear
        } else {
            kaspaAddress = .set(try container.decode(String.self, forKey: .kaspaAddress))
        }
        publicKeys = try container.decodeIfPresent([String].self, forKey: .publicKeys)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(displayName, forKey: .displayName)
        switch kaspaAddress {
        case .set(let address)?: try container.encode(address, forKey: .kaspaAddress)
        case .clear?: try container.encodeNil(forKey: .kaspaAddress)
        case nil: break
        }
        try container.encodeIfPresent(publicKeys, forKey: .publicKeys)
    }
}
