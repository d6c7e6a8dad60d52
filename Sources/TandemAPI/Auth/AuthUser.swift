public import Foundation

/// The `user` object of every auth response (betterauth-api.md §2). Nullable fields are
/// written as JSON `null`, never omitted, as BetterAuth's SQL adapters do.
public struct AuthUser: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var email: String
    public var emailVerified: Bool
    public var image: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var username: String?
    public var displayUsername: String?

    public init(
        id: String, name: String, email: String, emailVerified: Bool, image: String?,
        createdAt: Date, updatedAt: Date, username: String?, displayUsername: String?
    ) {
        self.id = id
        self.name = name
        self.email = email
        self.emailVerified = emailVerified
        self.image = image
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.username = username
        self.displayUsername = displayUsername
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, email, emailVerified, image, createdAt, updatedAt, username, displayUsername
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(email, forKey: .email)
        try container.encode(emailVerified, forKey: .emailVerified)
        try container.encode(image, forKey: .image)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(username, forKey: .username)
        try container.encode(displayUsername, forKey: .displayUsername)
    }
}
