/// One dispatched Server-Sent Event (WHATWG HTML §9.2 "Server-sent events").
public struct ServerSentEvent: Sendable, Equatable {
    /// The `event:` field; `"message"` when the event named none.
    public var type: String
    /// The `data:` lines joined with `\n`.
    public var data: String
    /// The last event id in force when the event was dispatched (an `id:` field persists until
    /// the next one), which is what a reconnect sends as `Last-Event-ID`.
    public var lastEventID: String

    public init(type: String, data: String, lastEventID: String) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}
