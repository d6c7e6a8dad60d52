/// The row sets of the indexer routes (kasia-protocol §10).
public enum KasiaIndexQuery: Sendable, Hashable {
    case handshakesBySender(String)
    case handshakesByReceiver(String)
    /// `aliasHex` is lowercase hex of the alias bytes.
    case contextualMessages(sender: String, aliasHex: String)
    case paymentsBySender(String)
    case paymentsByReceiver(String)
    /// `scopeHex` is lowercase hex of the scope bytes; "" selects stashes without a scope.
    case selfStashes(owner: String, scopeHex: String)
}
