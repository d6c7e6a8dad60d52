/// `POST /api/auth/is-username-available` body (betterauth-api.md §8, the username plugin's
/// `isUsernameAvailable`): the raw username, checked by the same rules as sign-in.
public struct UsernameAvailabilityRequest: RequestBody {
    public var username: String

    public init(username: String) { self.username = username }

    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable { case username }

    public typealias Field = CodingKeys
}

/// `POST /api/auth/is-username-available` 200 body: `{ "available": boolean }`.
public struct UsernameAvailability: Codable, Sendable, Equatable {
    public var available: Bool

    public init(available: Bool) { self.available = available }
}
