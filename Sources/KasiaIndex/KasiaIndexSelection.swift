public import KaspaCrypto
import TandemBasics

/// Which rows one kasia-indexer route selects (kasia-protocol §10), as a request names them
/// (``KasiaIndexRequest``). Addresses match by version and payload, as the indexer's keys do, so
/// the network prefix of a query does not matter; a row whose sender is unknown matches no
/// by-sender query.
public enum KasiaIndexSelection: Sendable, Hashable {
    case handshakesBySender(KaspaAddress)
    case handshakesByReceiver(KaspaAddress)
    /// `alias`: the alias's bytes (the route's `alias` parameter decoded from hex).
    case contextualMessagesBySender(KaspaAddress, alias: [UInt8])
    case paymentsBySender(KaspaAddress)
    case paymentsByReceiver(KaspaAddress)
    /// `scope`: the scope's bytes, empty for stashes without one.
    case selfStashesByOwner(KaspaAddress, scope: [UInt8])

    /// The address the route is keyed by.
    public var address: KaspaAddress {
        switch self {
        case .handshakesBySender(let address), .handshakesByReceiver(let address), .paymentsBySender(let address),
            .paymentsByReceiver(let address), .contextualMessagesBySender(let address, _),
            .selfStashesByOwner(let address, _):
            address
        }
    }

    /// Whether the route lists `row`.
    public func selects(_ row: KasiaIndexRow) -> Bool {
        switch (self, row.kind) {
        case (.handshakesBySender(let address), .handshake), (.paymentsBySender(let address), .payment):
            Self.same(address, row.sender)
        case (.handshakesByReceiver(let address), .handshake), (.paymentsByReceiver(let address), .payment):
            Self.same(address, row.receiver)
        case (.contextualMessagesBySender(let address, let alias), .contextualMessage):
            row.tag == Hex.encode(alias) && Self.same(address, row.sender)
        case (.selfStashesByOwner(let address, let scope), .selfStash):
            row.tag == Hex.encode(scope) && Self.same(address, row.sender)
        default:
            false
        }
    }

    private static func same(_ address: KaspaAddress, _ text: String?) -> Bool {
        guard let text, let other = try? KaspaAddress(text) else { return false }
        return address.version == other.version && address.payload == other.payload
    }
}
