public import KaspaRPC

/// One frame a connection of the simulated node read or is about to write, stamped on the
/// process's monotonic clock when it happened. A bench in the same process times a client
/// against these instants (issue 24: "node notification → message in history"); nothing in the
/// node reads them. Observed through the `frameObserver` of
/// ``SimulatedKaspaNode/serve(_:blockInterval:logger:frameObserver:_:)``.
public struct NodeFrameEvent: Sendable {
    public enum Kind: Sendable, Equatable {
        /// A request, stamped when its frame was read (before it is answered).
        case request(method: String)
        /// The answer to a request, stamped when it is ready to be written.
        case answer(method: String)
        /// A notification, stamped when it is ready to be written: the connection's
        /// subscriptions have chosen its entries and its frame is encoded.
        case notification(RPCNotification)
    }

    /// The connection: the listener id its subscribe answers carry.
    public let connection: UInt64
    public let kind: Kind
    /// The frame's text, as read or as it is written.
    public let frame: String
    public let instant: ContinuousClock.Instant
}

/// What receives every ``NodeFrameEvent``: called on the connection's task, before the frame is
/// written, so it must return at once.
public struct NodeFrameObserver: Sendable {
    let observe: @Sendable (NodeFrameEvent) -> Void

    public init(_ observe: @escaping @Sendable (NodeFrameEvent) -> Void) { self.observe = observe }
}
