/// The event-stream interpretation of WHATWG HTML §9.2.6, fed bytes as they arrive.
///
/// A pure state machine: ``feed(_:)`` returns the events completed by the new bytes. Lines end
/// in CRLF, LF or CR; a blank line dispatches; `:` lines are comments (the relay's heartbeats);
/// `event`, `data`, `id` and `retry` are the fields, others are ignored. An event without data
/// is not dispatched, and an `id` containing NUL is ignored, as the standard says.
///
/// Lines are read as bytes and only field values become text: every delimiter is ASCII, so
/// decoding the pieces gives the same text as decoding the line (invalid UTF-8 included), without
/// reading characters one grapheme at a time (issue 29: a stream's every byte passes here).
public struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var lastByteWasCR = false
    private var eventType: [UInt8] = []
    private var data: [UInt8] = []
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
            case Self.lineFeed:
                if lastByteWasCR {
                    lastByteWasCR = false
                    continue
                }
                if let event = endLine() { events.append(event) }
            case Self.carriageReturn:
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

    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let colon = UInt8(ascii: ":")
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        var start = 0
        if atStreamStart {
            atStreamStart = false
            // A leading UTF-8 byte order mark is skipped once (§9.2.6).
            if line.starts(with: Self.byteOrderMark) { start = Self.byteOrderMark.count }
        }
        guard start < line.count else { return dispatch() }
        if line[start] == Self.colon { return nil }
        let field = line[start...]
        let name: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = field.firstIndex(of: Self.colon) {
            name = field[..<colon]
            value = field[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            name = field
            value = []
        }
        switch Field(name) {
        case .event: eventType = Array(value)
        case .data:
            if hasData { data.append(Self.lineFeed) }
            data += value
            hasData = true
        case .id: if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case .retry:
            if !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let ms = UInt64(String(decoding: value, as: UTF8.self))
            {
                retryMilliseconds = ms
            }
        case nil: break
        }
        return nil
    }

    /// The fields the standard acts on, by their exact bytes.
    private enum Field {
        case event, data, id, retry

        init?(_ name: ArraySlice<UInt8>) {
            switch name.count {
            case 2 where name.elementsEqual("id".utf8): self = .id
            case 4 where name.elementsEqual("data".utf8): self = .data
            case 5 where name.elementsEqual("event".utf8): self = .event
            case 5 where name.elementsEqual("retry".utf8): self = .retry
            default: return nil
            }
        }
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventType.removeAll(keepingCapacity: true)
            data.removeAll(keepingCapacity: true)
            hasData = false
        }
        guard hasData else { return nil }
        let type = eventType.isEmpty ? "message" : String(decoding: eventType, as: UTF8.self)
        return ServerSentEvent(type: type, data: String(decoding: data, as: UTF8.self), lastEventID: lastEventID)
    }
}
