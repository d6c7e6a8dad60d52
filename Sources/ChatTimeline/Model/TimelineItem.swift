/// One row the timeline can show: identity, network identity, ordering key and display facts.
///
/// The engine never looks at the body; heights come from the injected measure function and from
/// `heightChanged` events (timeline-and-contacts.md §2.1).
public struct TimelineItem: Hashable, Sendable {
    public var key: MessageKey
    public var txID: TxID?
    public var kind: MessageKind
    public var status: DeliveryStatus
    /// Bumped by the caller whenever displayed content changes, so window diffs report an update.
    public var revision: Int

    public var id: MessageID { key.id }

    public init(key: MessageKey, txID: TxID?, kind: MessageKind, status: DeliveryStatus, revision: Int = 0) {
        self.key = key
        self.txID = txID
        self.kind = kind
        self.status = status
        self.revision = revision
    }
}
