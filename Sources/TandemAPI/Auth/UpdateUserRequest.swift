/// `POST /api/auth/update-user` body (BetterAuth `update-user.ts` plus the username plugin's
/// hook, betterauth-api.md §8): every member optional; `image: null` clears the image.
/// `email` is listed only so the server can refuse it (`EMAIL_CAN_NOT_BE_UPDATED`).
public struct UpdateUserRequest: RequestBody {
    public var name: String?
    public var image: Clearable<String>?
    public var username: String?
    public var displayUsername: String?

    public init(
        name: String? = nil, image: Clearable<String>? = nil, username: String? = nil, displayUsername: String? = nil
    ) {
        self.name = name
        self.image = image
        self.username = username
        self.displayUsername = displayUsername
    }

    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case name, image, username, displayUsername, email
    }

    public typealias Field = CodingKeys

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        if !container.contains(.image) {
            image = nil
        } else if try container.decodeNil(forKey: .image) {
            image = .clear
        } else {
            image = .set(try container.decode(String.self, forKey: .image))
        }
        username = try container.decodeIfPresent(String.self, forKey: .username)
        displayUsername = try container.decodeIfPresent(String.self, forKey: .displayUsername)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        switch image {
        case .set(let url)?: try container.encode(url, forKey: .image)
        case .clear?: try container.encodeNil(forKey: .image)
        case nil: break
        }
        try container.encodeIfPresent(username, forKey: .username)
        try container.encodeIfPresent(displayUsername, forKey: .displayUsername)
    }
}
