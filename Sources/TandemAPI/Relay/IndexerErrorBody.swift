/// The indexer routes' error body, `{"error": "..."}` like kasia-indexer (kasia-protocol §10),
/// answered with 400 for bad query parameters. The relay's own routes use ``APIErrorBody``.
public struct IndexerErrorBody: Codable, Sendable, Equatable {
    public var error: String

    public init(error: String) { self.error = error }
}
