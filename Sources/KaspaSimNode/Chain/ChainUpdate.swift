/// What the chain reports after a change: the UTXO diff and the new virtual DAA score.
public struct ChainUpdate: Sendable, Hashable {
    public var utxos: UtxoSetDiff
    public var virtualDaaScore: UInt64

    public init(utxos: UtxoSetDiff, virtualDaaScore: UInt64) {
        self.utxos = utxos
        self.virtualDaaScore = virtualDaaScore
    }
}
