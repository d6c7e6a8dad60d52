public import TandemAPI

/// One row of `GET /kasia/stream`, decoded by its `event:` kind (issue 11 item 3), with the
/// `id:` cursor that resumes after it.
public struct IndexerEvent: Sendable, Equatable {
    public enum Row: Sendable, Equatable {
        case handshake(IndexerHandshake)
        case contextualMessage(IndexerContextualMessage)
        case payment(IndexerPayment)
        case selfStash(IndexerSelfStash)
        case broadcast(IndexerBroadcast)
    }

    public var row: Row
    /// The event's `id:`: the row's block time on the relay, sent back as `Last-Event-ID`.
    public var id: String

    public init(row: Row, id: String) {
        self.row = row
        self.id = id
    }

    /// Decodes a dispatched event; nil for kinds this build does not know (the stream may grow).
    public init?(_ event: ServerSentEvent) throws(RelayClientError) {
        guard let kind = RelayEventKind(rawValue: event.type) else { return nil }
        let data = Array(event.data.utf8)
        let path = APIPath.kasiaStream
        switch kind {
        case .handshake: row = .handshake(try KasiaIndexerClient.decode(IndexerHandshake.self, .init(data), path: path))
        case .contextualMessage:
            row = .contextualMessage(
                try KasiaIndexerClient.decode(IndexerContextualMessage.self, .init(data), path: path))
        case .payment: row = .payment(try KasiaIndexerClient.decode(IndexerPayment.self, .init(data), path: path))
        case .selfStash: row = .selfStash(try KasiaIndexerClient.decode(IndexerSelfStash.self, .init(data), path: path))
        case .broadcast: row = .broadcast(try KasiaIndexerClient.decode(IndexerBroadcast.self, .init(data), path: path))
        }
        id = event.lastEventID
    }

    /// The row's transaction id, the de-duplication key shared with the indexer reads.
    public var txID: String {
        switch row {
        case .handshake(let r): r.txID
        case .contextualMessage(let r): r.txID
        case .payment(let r): r.txID
        case .selfStash(let r): r.txID
        case .broadcast(let r): r.txID
        }
    }
}

extension IndexerEvent.Row {
    /// The root that carried the row's payload, when its source says (kasia-protocol §16).
    public var root: String? {
        get {
            switch self {
            case .handshake(let r): r.root
            case .contextualMessage(let r): r.root
            case .payment(let r): r.root
            case .selfStash(let r): r.root
            case .broadcast(let r): r.root
            }
        }
        set {
            switch self {
            case .handshake(var r):
                r.root = newValue
                self = .handshake(r)
            case .contextualMessage(var r):
                r.root = newValue
                self = .contextualMessage(r)
            case .payment(var r):
                r.root = newValue
                self = .payment(r)
            case .selfStash(var r):
                r.root = newValue
                self = .selfStash(r)
            case .broadcast(var r):
                r.root = newValue
                self = .broadcast(r)
            }
        }
    }
}
