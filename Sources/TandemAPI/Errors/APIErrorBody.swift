/// The JSON error body `{ "code": …, "message": … }` (betterauth-api.md §1).
///
/// `code` is optional because rate-limit answers carry only `message` (§11). It stays a raw
/// string so a client can still read codes it does not know yet.
public struct APIErrorBody: Codable, Sendable, Equatable {
    public var code: String?
    public var message: String

    public init(code: APIErrorCode?, message: String) {
        self.code = code?.rawValue
        self.message = message
    }

    /// The code as a known case, or nil when absent or unknown to this build.
    public var knownCode: APIErrorCode? { code.flatMap(APIErrorCode.init(rawValue:)) }

    private enum CodingKeys: String, CodingKey { case code, message }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(code, forKey: .code)
        try container.encode(message, forKey: .message)
    }
}
