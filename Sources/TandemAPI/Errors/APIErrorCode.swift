/// Machine-readable error codes carried in `{code, message}` error bodies.
///
/// BetterAuth ≥ 1.5 codes (betterauth-api.md §4) plus Tandem's own. Clients match on these,
/// never on messages; HTTP statuses live only in `TandemServer`.
public enum APIErrorCode: String, Codable, Sendable, CaseIterable {
    case invalidUsernameOrPassword = "INVALID_USERNAME_OR_PASSWORD"
    case usernameTooShort = "USERNAME_TOO_SHORT"
    case usernameTooLong = "USERNAME_TOO_LONG"
    case invalidUsername = "INVALID_USERNAME"
    case usernameIsAlreadyTaken = "USERNAME_IS_ALREADY_TAKEN"
    case userAlreadyExistsUseAnotherEmail = "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL"
    case passwordTooShort = "PASSWORD_TOO_SHORT"
    case passwordTooLong = "PASSWORD_TOO_LONG"
    case validationError = "VALIDATION_ERROR"
    case failedToCreateUser = "FAILED_TO_CREATE_USER"
    case unauthorized = "UNAUTHORIZED"
    case invalidOrigin = "INVALID_ORIGIN"
    case missingOrNullOrigin = "MISSING_OR_NULL_ORIGIN"
    case invalidCallbackURL = "INVALID_CALLBACK_URL"
    case crossSiteNavigationLoginBlocked = "CROSS_SITE_NAVIGATION_LOGIN_BLOCKED"
    case badRequest = "BAD_REQUEST"
    case invalidEmail = "INVALID_EMAIL"
    case invalidEmailOrPassword = "INVALID_EMAIL_OR_PASSWORD"
    case invalidPassword = "INVALID_PASSWORD"
    case credentialAccountNotFound = "CREDENTIAL_ACCOUNT_NOT_FOUND"
    case emailCanNotBeUpdated = "EMAIL_CAN_NOT_BE_UPDATED"
    /// delete-user without `password` (Tandem always asks for it, issue 13).
    case userAlreadyHasPassword = "USER_ALREADY_HAS_PASSWORD"
    case unsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
    case methodNotAllowedDeferSessionRequired = "METHOD_NOT_ALLOWED_DEFER_SESSION_REQUIRED"
    /// Tandem: request body above the server's cap, or a relay payload above 10 KiB (HTTP 413).
    case payloadTooLarge = "PAYLOAD_TOO_LARGE"
    /// Tandem: the pre-BetterAuth `POST /users/login` is gone (HTTP 410); sign in again.
    case legacyLoginRemoved = "LEGACY_LOGIN_REMOVED"
    /// Tandem: a profile field failed validation (HTTP 400).
    case invalidProfile = "INVALID_PROFILE"
    /// Relay: the BIP-340 signature does not verify for the sender's key over the digest.
    case invalidSignature = "INVALID_SIGNATURE"
    /// Relay: the sender is not a version-0 (Schnorr) address, so it cannot sign.
    case senderNotSchnorr = "SENDER_NOT_SCHNORR"
    /// Relay: a submitted Kaspa transaction spends a pay-to-script-hash (or non-standard) UTXO,
    /// whose redeem script needs a script engine the relay does not run (HTTP 400).
    case unsupportedScript = "UNSUPPORTED_SCRIPT"
    /// Relay: a handshake, legacy body or payment needs `receiver` (its first output).
    case receiverRequired = "RECEIVER_REQUIRED"
    /// Relay: a contextual message, self-stash or broadcast is a self-spend; it carries
    /// neither `receiver` nor `amount`.
    case receiverForbidden = "RECEIVER_FORBIDDEN"
    /// Relay: the payload is not a Kasia envelope the relay stores (kasia-protocol §4).
    case notAKasiaPayload = "NOT_A_KASIA_PAYLOAD"
    /// Relay: `payload` or `signature` is not lowercase hex of the right length.
    case invalidHex = "INVALID_HEX"
    /// Relay: `sender` or `receiver` is not a valid Kaspa address.
    case invalidAddress = "INVALID_ADDRESS"
    /// Relay: too many submissions from this sender or client; see `Retry-After`.
    case rateLimited = "RATE_LIMITED"
    /// Tandem: the database did not answer in time (HTTP 503, `Retry-After`); retry later.
    case databaseUnavailable = "DATABASE_UNAVAILABLE"
    /// Sync: the device key's signature over the binding message does not verify (HTTP 400).
    case invalidKeyBinding = "INVALID_KEY_BINDING"
    /// Sync: the key is bound to another account (HTTP 409); a key belongs to at most one.
    case keyBelongsToAnotherAccount = "KEY_BELONGS_TO_ANOTHER_ACCOUNT"
    /// Sync: the key was revoked and cannot be registered again (HTTP 409).
    case keyRevoked = "KEY_REVOKED"
    /// Sync: no such device key on this account (HTTP 404).
    case keyNotFound = "KEY_NOT_FOUND"
    /// Sync: `after` is not a cursor this server issued (HTTP 400).
    case invalidCursor = "INVALID_CURSOR"
    /// Sync: more nodes or records in one request than allowed (HTTP 400).
    case tooManyItems = "TOO_MANY_ITEMS"
    /// Sync: the task does not exist or the account cannot read it (HTTP 404; the same answer
    /// for both, so task ids of others are not probed).
    case taskNotFound = "TASK_NOT_FOUND"
    /// Sync: no account has this username (HTTP 404).
    case userNotFound = "USER_NOT_FOUND"
    /// Sync: no invitation to this task waits for the account (HTTP 404).
    case invitationNotFound = "INVITATION_NOT_FOUND"
    /// Sync: a contact record's id or box is malformed (HTTP 400).
    case invalidContactRecord = "INVALID_CONTACT_RECORD"
    /// Sync: a record's `baseVersion` is not the stored version (HTTP 409); pull, merge, retry.
    case contactVersionConflict = "CONTACT_VERSION_CONFLICT"
    /// Sync: a task preset record's id or box is malformed (HTTP 400).
    case invalidPresetRecord = "INVALID_PRESET_RECORD"
    /// Sync: a preset record's `baseVersion` is not the stored version (HTTP 409); pull, merge,
    /// retry.
    case presetVersionConflict = "PRESET_VERSION_CONFLICT"
    /// Sync: a chat history record's id or box is malformed (HTTP 400).
    case invalidChatRecord = "INVALID_CHAT_RECORD"
    /// Sync: a chat history record's `baseVersion` is not the stored version (HTTP 409); pull,
    /// merge, retry.
    case chatVersionConflict = "CHAT_VERSION_CONFLICT"
    /// Sync: the server's queue of sync writes is full, or this write waited too long in it
    /// (HTTP 429, `Retry-After`); the database is fine, retry after the delay.
    case syncBusy = "SYNC_BUSY"
    /// Sync: the write would take the account past what it may keep in the collection (rows or
    /// bytes; HTTP 413); nothing was written. Delete something, or ask the operator for more.
    case quotaExceeded = "QUOTA_EXCEEDED"
    /// Tandem: the server failed; the request may be retried.
    case internalServerError = "INTERNAL_SERVER_ERROR"
}
