public import Foundation
public import TandemAccounts

/// A long-lived HTTP response read as it arrives: the seam for Server-Sent Events, beside
/// ``HTTPTransport`` for whole exchanges.
public protocol EventStreamTransport: Sendable {
    /// Sends `request`; the stream yields the status first, then body chunks, and finishes when
    /// the server closes the response (or throws when the connection fails). Ending iteration
    /// cancels the request.
    func open(_ request: TransportRequest) -> AsyncThrowingStream<EventStreamChunk, any Error>
}

/// One piece of a streamed response.
public enum EventStreamChunk: Sendable, Equatable {
    /// The response head: status and header fields.
    case head(status: Int, headers: [String: String])
    case body(Data)
}
