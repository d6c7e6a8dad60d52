/// What a stream watches: rows whose sender or receiver is one of `addresses`, and contextual
/// messages whose alias is one of `aliasHexes` (issue 11 item 3).
public struct KasiaWatch: Sendable, Hashable {
    public var addresses: Set<String>
    public var aliasHexes: Set<String>

    public init(addresses: Set<String>, aliasHexes: Set<String>) {
        self.addresses = addresses
        self.aliasHexes = aliasHexes
    }

    /// Whether `record` is one this watch asks for.
    public func matches(_ record: KasiaRecord) -> Bool {
        let draft = record.draft
        if addresses.contains(draft.sender) { return true }
        if let receiver = draft.receiver, addresses.contains(receiver) { return true }
        return draft.kind == .contextualMessage && aliasHexes.contains(draft.tag)
    }
}
