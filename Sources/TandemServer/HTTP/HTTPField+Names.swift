import HTTPTypes

/// Header names HTTPTypes has no constant for. The literals are valid field names, so the
/// failable initialiser cannot fail.
extension HTTPField.Name {
    static let pragma = HTTPField.Name("Pragma")!
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
    static let secFetchMode = HTTPField.Name("Sec-Fetch-Mode")!
    static let expoOrigin = HTTPField.Name("expo-origin")!
    static let xRetryAfter = HTTPField.Name("X-Retry-After")!
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let xRequestID = HTTPField.Name("X-Request-Id")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
