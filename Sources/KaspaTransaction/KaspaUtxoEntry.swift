public import KaspaCrypto
import TandemBasics

/// An unspent output with what signing and mass need of it: amount and locking script
/// (the SDK's `UtxoEntry.to_dict`: address, outpoint, amount, scriptPublicKey, blockDaaScore,
/// isCoinbase, covenantId).
public struct KaspaUtxoEntry: Sendable, Hashable, Codable {
    /// The address the script pays, when the SDK names it; informational only.
    public var address: KaspaAddress?
    public var outpoint: KaspaOutpoint
    public var amount: UInt64
    public var scriptPublicKey: KaspaScriptPublicKey
    public var blockDAAScore: UInt64
    public var isCoinbase: Bool
    /// A covenant binding (newer transaction versions); it enlarges the UTXO's storage plurality.
    public var covenantID: [UInt8]?

    public init(
        address: KaspaAddress? = nil, outpoint: KaspaOutpoint, amount: UInt64, scriptPublicKey: KaspaScriptPublicKey,
        blockDAAScore: UInt64 = 0, isCoinbase: Bool = false, covenantID: [UInt8]? = nil
    ) {
        self.address = address
        self.outpoint = outpoint
        self.amount = amount
        self.scriptPublicKey = scriptPublicKey
        self.blockDAAScore = blockDAAScore
        self.isCoinbase = isCoinbase
        self.covenantID = covenantID
    }

    private enum CodingKeys: String, CodingKey {
        case address, outpoint, amount, scriptPublicKey, isCoinbase
        case blockDAAScore = "blockDaaScore"
        case covenantID = "covenantId"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        address = try container.decodeIfPresent(KaspaAddress.self, forKey: .address)
        outpoint = try container.decode(KaspaOutpoint.self, forKey: .outpoint)
        amount = try container.decode(UInt64.self, forKey: .amount)
        scriptPublicKey = try container.decode(KaspaScriptPublicKey.self, forKey: .scriptPublicKey)
        blockDAAScore = try container.decodeIfPresent(UInt64.self, forKey: .blockDAAScore) ?? 0
        isCoinbase = try container.decodeIfPresent(Bool.self, forKey: .isCoinbase) ?? false
        let hasCovenant = container.contains(.covenantID) ? !(try container.decodeNil(forKey: .covenantID)) : false
        covenantID = hasCovenant ? try KaspaJSONHex.decode(container, .covenantID, count: 32) : nil
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(address, forKey: .address)
        try container.encode(outpoint, forKey: .outpoint)
        try container.encode(amount, forKey: .amount)
        try container.encode(scriptPublicKey, forKey: .scriptPublicKey)
        try container.encode(blockDAAScore, forKey: .blockDAAScore)
        try container.encode(isCoinbase, forKey: .isCoinbase)
        try container.encode(covenantID.map { Hex.encode($0) }, forKey: .covenantID)
    }
}
