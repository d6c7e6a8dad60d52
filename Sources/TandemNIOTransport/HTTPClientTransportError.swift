public import Foundation

/// A failed exchange, worded for `AccountClientError.unreachable` (which shows
/// `localizedDescription`): NIO's own errors print as type names there.
public struct HTTPClientTransportError: LocalizedError, Sendable {
    public let reason: String
    public var errorDescription: String? { reason }
}
