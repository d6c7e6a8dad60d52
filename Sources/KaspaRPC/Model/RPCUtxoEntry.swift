public import KaspaCrypto
public import KaspaTransaction
import TandemBasics

/// A UTXO's entry as node frames carry it (`RpcUtxoEntry`): amount, script, the DAA score of the
/// block that created it, coinbase flag, covenant (always null for version-0 outputs).
public struct RPCUtxoEntry: Sendable, Hashable, Codable {
    public var amount: UInt64
    public var scriptPublicKey: RPCScriptPublicKey
    public var blockDaaScore: UInt64
    public var isCoinbase: Bool

    public init(amount: UInt64, scriptPublicKey: KaspaScriptPublicKey, blockDaaScore: UInt64, isCoinbase: Bool) {
        self.amount = amount
        self.scriptPublicKey = RPCScriptPublicKey(scriptPublicKey)
        self.blockDaaScore = blockDaaScore
        self.isCoinbase = isCoinbase
    }

    private enum CodingKeys: String, CodingKey { case amount, scriptPublicKey, blockDaaScore, isCoinbase, covenantId }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        amount = try container.decode(UInt64.self, forKey: .amount)
        scriptPublicKey = try container.decode(RPCScriptPublicKey.self, forKey: .scriptPublicKey)
        blockDaaScore = try container.decodeIfPresent(UInt64.self, forKey: .blockDaaScore) ?? 0
        isCoinbase = try container.decodeIfPresent(Bool.self, forKey: .isCoinbase) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(amount, forKey: .amount)
        try container.encode(scriptPublicKey, forKey: .scriptPublicKey)
        try container.encode(blockDaaScore, forKey: .blockDaaScore)
        try container.encode(isCoinbase, forKey: .isCoinbase)
        try container.encodeNil(forKey: .covenantId)
    }
}

/// One UTXO of an address (`RpcUtxosByAddressesEntry`): in `getUtxosByAddresses` answers and in
/// both lists of a `UtxosChanged` notification.
public struct RPCUtxosByAddressesEntry: Sendable, Hashable, Codable {
    public var address: KaspaAddress?
    public var outpoint: KaspaOutpoint
    public var utxoEntry: RPCUtxoEntry

    public init(address: KaspaAddress?, outpoint: KaspaOutpoint, utxoEntry: RPCUtxoEntry) {
        self.address = address
        self.outpoint = outpoint
        self.utxoEntry = utxoEntry
    }

    /// The entry as the transaction builder spends it.
    public init(_ entry: KaspaUtxoEntry) {
        self.init(
            address: entry.address, outpoint: entry.outpoint,
            utxoEntry: RPCUtxoEntry(
                amount: entry.amount, scriptPublicKey: entry.scriptPublicKey, blockDaaScore: entry.blockDAAScore,
                isCoinbase: entry.isCoinbase))
    }

    /// What the builder needs: the SDK's `UtxoEntry` shape.
    public var kaspaEntry: KaspaUtxoEntry {
        KaspaUtxoEntry(
            address: address, outpoint: outpoint, amount: utxoEntry.amount,
            scriptPublicKey: utxoEntry.scriptPublicKey.value, blockDAAScore: utxoEntry.blockDaaScore,
            isCoinbase: utxoEntry.isCoinbase)
    }

    private enum CodingKeys: String, CodingKey { case address, outpoint, utxoEntry }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(address, forKey: .address)
        try container.encode(outpoint, forKey: .outpoint)
        try container.encode(utxoEntry, forKey: .utxoEntry)
    }
}
