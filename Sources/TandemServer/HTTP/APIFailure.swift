import HTTPTypes
import TandemAPI
import TandemServerStore

/// An error answered as `{code, message}` JSON with its HTTP status (betterauth-api.md §4).
/// Statuses exist only here; the wire carries `APIErrorCode`.
struct APIFailure: Error, Sendable {
    let status: HTTPResponse.Status
    let body: APIErrorBody
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ code: APIErrorCode?, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.body = APIErrorBody(code: code, message: message)
        self.headers = headers
    }

    static let unauthorized = APIFailure(.unauthorized, .unauthorized, "Unauthorized")
    static let invalidCredentials = APIFailure(
        .unauthorized, .invalidUsernameOrPassword, "Invalid username or password")
    static let invalidJSON = APIFailure(.badRequest, .badRequest, "Invalid JSON in request body")
    static let payloadTooLarge = APIFailure(
        .contentTooLarge, .payloadTooLarge, "Request body is larger than \(ServerLimits.maxBodyBytes) bytes")

    /// The store did not answer in time or cannot be reached (issue 14 audit); retry later.
    static let databaseUnavailable = APIFailure(
        .serviceUnavailable, .databaseUnavailable, "The database is unavailable. Please try again later.",
        headers: [.retryAfter: "5"])

    static func validation(_ issues: [String]) -> APIFailure {
        APIFailure(.badRequest, .validationError, issues.joined(separator: "; "))
    }
}
