/// The event-stream interpretation of WHATWG HTML §9.2.6, fed bytes as they arrive.
///
/// A pure state machine: ``feed(_:)`` returns the events completed by the new bytes. Lines end
/// in CRLF, LF or CR; a blank line dispatches; `:` lines are comments (the relay's heartbeats);
/// `event`, `data`, `id` and `retry` are the fields, others are ignored. An event without data
/// is not dispatched, and an `id` containing NUL is ignored, as the standard says.
public struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var lastByteWasCR = false
    private var eventType = ""
    private var data = ""
    private var hasData = false
    /// The id a reconnect sends as `Last-Event-ID`; survives across events.
    public private(set) var lastEventID = ""
    /// The server's `retry:` reconnection time in milliseconds, when it sent one.
    public private(set) var retryMilliseconds: UInt64?
    /// True until the first line ends: only that line may start with a byte order mark.
    private var atStreamStart = true

    public init(lastEventID: String = "") {
        self.lastEventID = lastEventID
    }

    /// Consumes `bytes` and returns the events they complete, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n"):
                if lastByteWasCR {
                    lastByteWasCR = false
                    continue
                }
                if let event = endLine() { events.append(event) }
            case UInt8(ascii: "\r"):
                lastByteWasCR = true
                if let event = endLine() { events.append(event) }
                continue
            default:
                line.append(byte)
            }
            lastByteWasCR = false
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if atStreamStart {
            atStreamStart = false
            // A leading UTF-8 byte order mark is skipped once (§9.2.6).
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        guard !line.isEmpty else { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        let text = String(decoding: line, as: UTF8.self)
        let name: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            name = Substring(text)
            value = ""
        }
        switch name {
        case "event": eventType = String(value)
        case "data":
            if hasData { data += "\n" }
            data += value
            hasData = true
        case "id": if !value.contains("\u{0}") { lastEventID = String(value) }
        case "retry":
            if !value.isEmpty, value.allSatisfy(\.isASCIIDigit), let ms = UInt64(value) { retryMilliseconds = ms }
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventType = ""
            data = ""
            hasData = false
        }
        guard hasData else { return nil }
        return ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: data, lastEventID: lastEventID)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
