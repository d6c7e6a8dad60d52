import KaspaCrypto
import TandemAPI

/// Whose rows a walk keeps: ours (sent, stashed, or to us — a stranger's handshake or payment
/// included) and the contacts' messages.
struct Parties: Sendable {
    let me: String
    let contacts: Set<String>

    init(me: KaspaAddress, contacts: [KaspaAddress]) {
        self.me = me.description
        self.contacts = Set(contacts.map(\.description))
    }

    func concern(_ event: IndexerEvent) -> Bool {
        switch event.row {
        case .handshake(let row): row.receiver == me || row.sender == me || contacts.contains(row.sender)
        case .contextualMessage(let row): row.sender == me || contacts.contains(row.sender)
        case .payment(let row): row.receiver == me || row.sender == me
        case .selfStash(let row): row.owner == me
        case .broadcast(let row): contacts.contains(row.sender)
        }
    }
}

/// Which Kasia transactions each recently walked chain block accepted, the newest `limit` blocks.
struct ChainAcceptance: Sendable {
    let limit: Int
    private var accepted: [[UInt8]: [String]] = [:]
    private var order: [[UInt8]] = []

    init(limit: Int) { self.limit = limit }

    mutating func record(_ block: [UInt8], accepted ids: [String]) {
        if accepted.updateValue(ids, forKey: block) == nil { order.append(block) }
        if order.count > limit {
            let dropped = order.count - limit
            for old in order.prefix(dropped) { accepted[old] = nil }
            order.removeFirst(dropped)
        }
    }

    /// Forgets `block`, answering what it accepted (nothing for a block not walked here).
    mutating func remove(_ block: [UInt8]) -> [String] {
        guard let ids = accepted.removeValue(forKey: block) else { return [] }
        order.removeAll { $0 == block }
        return ids
    }
}
