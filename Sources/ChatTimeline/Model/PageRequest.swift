/// A page the engine wants loaded. The shell runs it and answers with `pageLoaded` or
/// `pageFailed` carrying the same token; at most one request is in flight (§2.6).
public struct PageRequest: Hashable, Sendable {
    public let token: PageToken
    public let direction: PageDirection
    public let limit: Int

    public init(token: PageToken, direction: PageDirection, limit: Int) {
        self.token = token
        self.direction = direction
        self.limit = limit
    }
}
