public import Foundation

/// One wRPC JSON frame in a WebSocket text message (kaspa-node.md §2): requests
/// `{"id","method","params"}`, answers with the same id and method and either `params` or
/// `error`, notifications without `id`.
///
/// Reading is two steps: the head (id, method, error) first, then the `params` as the type the
/// caller expects, so one socket reader can route every frame without knowing its answer types.
public enum RPCFrame {
    /// What a client reads from the socket.
    public enum Inbound: Sendable, Equatable {
        /// A successful answer; its params are read with ``result(_:from:)``.
        case response(id: UInt64, method: String, frame: Data)
        /// A refused call: the node's error text, kept whole (§6).
        case error(id: UInt64, method: String, message: String)
        case notification(RPCNotification)
    }

    /// The text of a request frame.
    public static func request(id: UInt64, method: RPCMethod, params: some Encodable & Sendable) throws(RPCFrameError)
        -> String
    {
        if let writer = params as? any RPCParamsWriter, let name = JSONWriting.plainString(method.rawValue) {
            // `{"id":…,"method":"…","params":…}`, in `Envelope`'s order.
            var out = Array(#"{"id":"#.utf8)
            out.reserveCapacity(2048)
            JSONWriting.number(id, into: &out)
            out.append(contentsOf: #","method":"#.utf8)
            out.append(contentsOf: name)
            out.append(contentsOf: #","params":"#.utf8)
            if writer.writeJSON(into: &out) {
                out.append(UInt8(ascii: "}"))
                return String(decoding: out, as: UTF8.self)
            }
        }
        return try text(Envelope(id: id, method: method.rawValue, params: params))
    }

    /// Reads a frame a node sent.
    ///
    /// A UtxosChanged notification is read by ``UtxosChangedReader`` in one pass (issue 24: a
    /// 1,000-entry one read and applied in < 10 ms), and the head of a successful answer by
    /// ``AnswerHeadReader`` (issue 49 item 4); every other frame, and any frame those readers stop
    /// on, by ``decodedInbound(_:)``, so values and errors are exactly `JSONDecoder`'s.
    public static func inbound(_ frame: Data) throws(RPCFrameError) -> Inbound {
        let bytes = Array(frame)
        if let change = try? UtxosChangedReader.read(bytes) { return .notification(.utxosChanged(change)) }
        if let head = try? AnswerHeadReader.read(bytes) {
            return .response(id: head.id, method: head.method, frame: frame)
        }
        return try decodedInbound(frame)
    }

    /// Reads a frame a node sent with `JSONDecoder`: any frame, and the reference the UtxosChanged
    /// reader is held to (UtxosChangedReaderTests, the node-frame fuzz target).
    static func decodedInbound(_ frame: Data) throws(RPCFrameError) -> Inbound {
        let head: Head
        do { head = try JSONDecoder().decode(Head.self, from: frame) } catch {
            throw .malformed(Self.reason(error))
        }
        guard let id = head.id else { return .notification(try notification(head.method, frame: frame)) }
        if let error = head.error { return .error(id: id, method: head.method, message: error.message) }
        return .response(id: id, method: head.method, frame: frame)
    }

    /// The `params` of an answer (or of a request, on the node's side) as `T`.
    /// Params with a reader of their own (``RPCAnswerReader``) are read in one pass over the
    /// frame; every other type, and any frame such a reader stops on, by `JSONDecoder`.
    public static func params<T: Decodable>(_ type: T.Type, from frame: Data) throws(RPCFrameError) -> T {
        if let reader = type as? any RPCAnswerReader.Type,
            let value = try? AnswerParamsReader.read(reader, from: Array(frame)) as? T
        {
            return value
        }
        return try decodedParams(type, from: frame)
    }

    /// ``params(_:from:)`` by `JSONDecoder` alone: the reference the answer readers are held to.
    static func decodedParams<T: Decodable>(_ type: T.Type, from frame: Data) throws(RPCFrameError) -> T {
        do { return try JSONDecoder().decode(ParamsOnly<T>.self, from: frame).params } catch {
            throw .malformed(Self.reason(error))
        }
    }

    private static func notification(_ method: String, frame: Data) throws(RPCFrameError) -> RPCNotification {
        switch RPCNotificationMethod(rawValue: method) {
        case .utxosChanged:
            return .utxosChanged(try params(UtxosChangedScope.self, from: frame).UtxosChanged)
        case .virtualDaaScoreChanged:
            return .virtualDaaScoreChanged(try params(DaaScoreScope.self, from: frame).VirtualDaaScoreChanged)
        default:
            return .other(method: method)
        }
    }

    // MARK: The node's side (the simulated node writes these)

    /// What a node reads: the id and method of a request, its params read with ``params(_:from:)``.
    /// A request without `params` is malformed, as rusty-kaspa's wRPC server reads it (kaspa-node.md
    /// §11: it closes the socket).
    public static func requestHead(_ frame: Data) throws(RPCFrameError) -> (id: UInt64, method: String) {
        let head: RequestHead
        do { head = try JSONDecoder().decode(RequestHead.self, from: frame) } catch {
            throw .malformed(Self.reason(error))
        }
        guard let id = head.id else { throw .malformed("a request needs an id") }
        guard head.params != nil else { throw .malformed("a request needs params") }
        return (id, head.method)
    }

    /// An answer frame.
    public static func response(id: UInt64, method: String, params: some Encodable & Sendable) throws(RPCFrameError)
        -> String
    {
        try text(Envelope(id: id, method: method, params: params))
    }

    /// An error frame carrying the node's text.
    public static func error(id: UInt64, method: String, message: String) throws(RPCFrameError) -> String {
        try text(ErrorEnvelope(id: id, method: method, error: .init(code: 0, message: message)))
    }

    /// A notification frame: `{"method": "<name>Notification", "params": {"<Scope>": body}}`.
    public static func notification(_ notification: RPCNotification) throws(RPCFrameError) -> String {
        switch notification {
        case .utxosChanged(let body):
            return try text(
                NotificationEnvelope(
                    method: RPCNotificationMethod.utxosChanged.rawValue, params: UtxosChangedScope(UtxosChanged: body)))
        case .virtualDaaScoreChanged(let body):
            return try text(
                NotificationEnvelope(
                    method: RPCNotificationMethod.virtualDaaScoreChanged.rawValue,
                    params: DaaScoreScope(VirtualDaaScoreChanged: body)))
        case .other(let method):
            return try text(NotificationEnvelope(method: method, params: RPCEmpty()))
        }
    }

    // MARK: Shapes

    private struct Head: Decodable {
        var id: UInt64?
        var method: String
        var error: ErrorBody?
    }

    /// A request's head: `params` only checked for presence (any JSON value but `null`).
    private struct RequestHead: Decodable {
        var id: UInt64?
        var method: String
        var params: PresentValue?

        struct PresentValue: Decodable {
            init(from decoder: any Decoder) throws {
                guard try !decoder.singleValueContainer().decodeNil() else {
                    throw DecodingError.valueNotFound(
                        PresentValue.self, .init(codingPath: decoder.codingPath, debugDescription: "params is null"))
                }
            }
        }
    }

    struct ErrorBody: Codable {
        var code: Int64
        var message: String

        private enum CodingKeys: String, CodingKey { case code, message, data }

        init(code: Int64, message: String) {
            self.code = code
            self.message = message
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            code = try container.decodeIfPresent(Int64.self, forKey: .code) ?? 0
            message = try container.decode(String.self, forKey: .message)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(code, forKey: .code)
            try container.encode(message, forKey: .message)
            try container.encodeNil(forKey: .data)
        }
    }

    private struct ParamsOnly<T: Decodable>: Decodable { var params: T }

    private struct Envelope<Params: Encodable>: Encodable {
        var id: UInt64
        var method: String
        var params: Params
    }

    private struct ErrorEnvelope: Encodable {
        var id: UInt64
        var method: String
        var error: ErrorBody
    }

    private struct NotificationEnvelope<Params: Encodable>: Encodable {
        var method: String
        var params: Params
    }

    // The scope wrappers are PascalCase on the wire.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    private struct UtxosChangedScope: Codable { var UtxosChanged: RPCUtxosChanged }
    // swift-format-ignore: AlwaysUseLowerCamelCase
    private struct DaaScoreScope: Codable { var VirtualDaaScoreChanged: RPCVirtualDaaScoreChanged }

    private static func text(_ value: some Encodable) throws(RPCFrameError) -> String {
        do { return String(decoding: try JSONEncoder().encode(value), as: UTF8.self) } catch {
            throw .unencodable(String(describing: error))
        }
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.keyNotFound(_, let context),
            DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        default: return String(describing: error)
        }
    }
}

/// A frame that is not the JSON the spec describes.
public enum RPCFrameError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(String)
    case unencodable(String)

    public var description: String {
        switch self {
        case .malformed(let reason): "malformed node frame: \(reason)"
        case .unencodable(let reason): "cannot encode the frame: \(reason)"
        }
    }
}
