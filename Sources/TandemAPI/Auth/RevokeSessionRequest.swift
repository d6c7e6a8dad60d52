/// `POST /api/auth/revoke-session` body (BetterAuth `session.ts`): `{ token }`.
///
/// Tandem keeps only token hashes, so `list-sessions` cannot hand out other sessions' raw
/// tokens: its `token` member carries the raw token for the caller's own session and the
/// SHA-256 hex of the token (useless as a credential) for the others. `token` here may be
/// either; both are honoured only for the caller's own sessions, and an unknown token still
/// answers `{status:true}` as BetterAuth does.
public struct RevokeSessionRequest: RequestBody {
    public var token: String

    public init(token: String) { self.token = token }

    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable { case token }

    public typealias Field = CodingKeys
}

/// `{ "status": true }`: the answer of revoke-session, revoke-sessions, revoke-other-sessions
/// and update-user (BetterAuth `session.ts`, `update-user.ts`).
public struct StatusResponse: Codable, Sendable, Equatable {
    public var status: Bool

    public init(status: Bool) { self.status = status }
}
