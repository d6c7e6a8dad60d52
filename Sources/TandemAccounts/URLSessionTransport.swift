public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `HTTPTransport` over URLSession (FoundationNetworking on Linux). URLSession's own cookie
/// jar and cache are off: the session cookie lives only in the profile's `SessionCookieStore`.
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let userAgent: String

    /// `userAgent` is what `list-sessions` shows for this device's sessions; without it Linux
    /// Foundation would send the process name with "(unknown version)" and curl's version.
    public init(timeout: TimeInterval = 30, userAgent: String = "Tandem") {
        self.userAgent = userAgent
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        session = URLSession(configuration: configuration)
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpShouldHandleCookies = false
        urlRequest.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        for header in request.headers { urlRequest.addValue(header.value, forHTTPHeaderField: header.name) }
        urlRequest.httpBody = request.body
        let (data, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [(name: String, value: String)] = []
        for (key, value) in http.allHeaderFields {
            guard let name = key as? String, let text = value as? String else { continue }
            if name.caseInsensitiveCompare("Set-Cookie") == .orderedSame {
                headers += SetCookieLine.split(text).map { (name: name, value: $0) }
            } else {
                headers.append((name: name, value: text))
            }
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: data)
    }
}

/// Splits a comma-joined `Set-Cookie` header back into cookies: a piece whose part before the
/// first `;` has no `=` continues the previous cookie (an `Expires=Thu, 01 Jan …` date).
enum SetCookieLine {
    static func split(_ joined: String) -> [String] {
        var cookies: [String] = []
        for piece in joined.split(separator: ",", omittingEmptySubsequences: false) {
            let head = piece.split(separator: ";", maxSplits: 1).first ?? ""
            if head.contains("=") || cookies.isEmpty {
                cookies.append(piece.trimmingCharacters(in: .whitespaces))
            } else {
                cookies[cookies.count - 1] += "," + piece
            }
        }
        return cookies
    }
}
