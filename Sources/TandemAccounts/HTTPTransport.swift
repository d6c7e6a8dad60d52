public import Foundation

/// One HTTP exchange, independent of the networking stack (the transport seam,
/// ARCHITECTURE.md): URLSession in apps and the CLI, an in-process fake in tests.
public protocol HTTPTransport: Sendable {
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

public struct TransportRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    /// Header fields in order; a name may repeat.
    public var headers: [(name: String, value: String)]
    public var body: Data?

    public init(method: String, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    public static func == (lhs: TransportRequest, rhs: TransportRequest) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body
            && lhs.headers.map { "\($0.name):\($0.value)" } == rhs.headers.map { "\($0.name):\($0.value)" }
    }
}

public struct TransportResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data

    public init(status: Int, headers: [(name: String, value: String)], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Every value of a header, case-insensitively.
    public func values(of name: String) -> [String] {
        headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }
}
