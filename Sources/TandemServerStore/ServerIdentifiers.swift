/// An account's id (`auth_user.id`; the server's own name for a BetterAuth user id): 32 characters of `[A-Za-z0-9]` for users made here,
/// any string for imported BetterAuth users.
public struct AccountID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// A session row's id (`session.id`), distinct from its secret token.
public struct SessionID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// SHA-256 of a session token as 64 lower-case hex characters: the only form of the token the
/// store ever sees, so a database leak yields no usable session.
public struct SessionTokenHash: Hashable, Sendable {
    public let hex: String
    public init(hex: String) { self.hex = hex }
}
