public import Foundation
import TandemBasics

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
        let (data, response) = try await Self.data(for: urlRequest, in: session)
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

extension URLSessionTransport {
    /// `session.data(for:)`, cancelled without a deadlock. On Linux, FoundationNetworking's own
    /// `data(for:)` cancels its task inside the cancellation handler, which holds the awaiting
    /// task's status lock, and `URLSessionTask.cancel()` then waits for the session's queue; if
    /// that queue is finishing the same request, it waits for the status lock to resume the
    /// continuation, and both wait for ever (seen in a full `swift test`, 2026-12-01: a relay
    /// stream's task group cancelled mid-request). Here the handler only asks another queue to
    /// cancel.
    static func data(for request: URLRequest, in session: URLSession) async throws -> (Data, URLResponse) {
        let started = Locked<URLSessionDataTask?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let data, let response {
                        continuation.resume(returning: (data, response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                started.withLock { $0 = task }
                task.resume()
                // Cancelled before the task was kept: the handler found nothing to cancel.
                if Task.isCancelled { DispatchQueue.global().async { task.cancel() } }
            }
        } onCancel: {
            guard let task = started.withLock({ $0 }) else { return }
            DispatchQueue.global().async { task.cancel() }
        }
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
