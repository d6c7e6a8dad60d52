import KaspaCrypto
import KaspaTransaction

/// One connection's subscriptions (kaspa-node.md §2): `UtxosChanged` addresses accumulate and
/// are removed by unsubscribing with them; `VirtualDaaScoreChanged` is on or off. Nothing
/// survives the connection.
actor ConnectionSubscriptions {
    /// The `{id}` every subscribe answer carries.
    let listenerID: UInt64
    private(set) var scripts: Set<KaspaScriptPublicKey> = []
    private(set) var virtualDaaScore = false

    init(listenerID: UInt64) { self.listenerID = listenerID }

    func subscribe(_ addresses: [KaspaAddress]) {
        scripts.formUnion(addresses.map(KaspaScriptPublicKey.init(address:)))
    }

    /// No addresses: every address.
    func unsubscribe(_ addresses: [KaspaAddress]) {
        if addresses.isEmpty {
            scripts = []
        } else {
            scripts.subtract(addresses.map(KaspaScriptPublicKey.init(address:)))
        }
    }

    func setVirtualDaaScore(_ on: Bool) { virtualDaaScore = on }
}
