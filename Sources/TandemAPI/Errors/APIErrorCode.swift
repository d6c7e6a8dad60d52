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
    case unsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
    case methodNotAllowedDeferSessionRequired = "METHOD_NOT_ALLOWED_DEFER_SESSION_REQUIRED"
    /// Tandem: request body above the server's cap (HTTP 413).
    case payloadTooLarge = "PAYLOAD_TOO_LARGE"
    /// Tandem: the pre-BetterAuth `POST /users/login` is gone (HTTP 410); sign in again.
    case legacyLoginRemoved = "LEGACY_LOGIN_REMOVED"
    /// Tandem: a profile field failed validation (HTTP 400).
    case invalidProfile = "INVALID_PROFILE"
    /// Tandem: the server failed; the request may be retried.
    case internalServerError = "INTERNAL_SERVER_ERROR"
}
