public import KaspaCrypto

/// Which entries one kasia-indexer route selects (kasia-protocol §10). Addresses match by
/// version and payload, as the indexer's keys do, so the network prefix of a query does not
/// matter; an entry whose sender is unknown matches no by-sender query.
public enum KasiaIndexQuery: Sendable, Hashable {
    case handshakesBySender(KaspaAddress)
    case handshakesByReceiver(KaspaAddress)
    /// `alias`: the alias's bytes (the route's `alias` parameter decoded from hex).
    case contextualMessagesBySender(KaspaAddress, alias: [UInt8])
    case paymentsBySender(KaspaAddress)
    case paymentsByReceiver(KaspaAddress)
    /// `scope`: the scope's bytes, empty for stashes without one.
    case selfStashesByOwner(KaspaAddress, scope: [UInt8])

    /// Whether the route lists `entry`.
    public func selects(_ entry: KasiaIndexEntry) -> Bool {
        switch (self, entry.operation) {
        case (.handshakesBySender(let address), .handshake), (.paymentsBySender(let address), .payment):
            Self.same(address, entry.sender)
        case (.handshakesByReceiver(let address), .handshake), (.paymentsByReceiver(let address), .payment):
            Self.same(address, entry.receiver)
        case (.contextualMessagesBySender(let address, let alias), .contextualMessage(let stored)):
            alias == stored && Self.same(address, entry.sender)
        case (.selfStashesByOwner(let address, let scope), .selfStash(let stored)):
            scope == stored && Self.same(address, entry.sender)
        default:
            false
        }
    }

    private static func same(_ address: KaspaAddress, _ other: KaspaAddress?) -> Bool {
        guard let other else { return false }
        return address.version == other.version && address.payload == other.payload
    }
}
