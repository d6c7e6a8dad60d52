import KaspaTransaction
import TandemBasics

/// An output's or a spent UTXO's script class (`PubKey`, `PubKeyECDSA`, `ScriptHash`,
/// `NonStandard`) and address.
public struct RPCScriptVerboseData: Sendable, Hashable, Codable {
    public var scriptPublicKeyType: String
    public var scriptPublicKeyAddress: String

    public init(scriptPublicKeyType: String, scriptPublicKeyAddress: String) {
        self.scriptPublicKeyType = scriptPublicKeyType
        self.scriptPublicKeyAddress = scriptPublicKeyAddress
    }
}

/// An input's verbose data: the UTXO it spends, each member null under its verbosity level (§5).
public struct RPCTransactionInputVerboseData: Sendable, Hashable, Codable {
    public var utxoEntry: RPCVerboseUtxoEntry?

    public init(utxoEntry: RPCVerboseUtxoEntry?) { self.utxoEntry = utxoEntry }

    private enum CodingKeys: String, CodingKey { case utxoEntry }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(utxoEntry, forKey: .utxoEntry)
    }
}

/// The spent UTXO inside an input's verbose data.
public struct RPCVerboseUtxoEntry: Sendable, Hashable, Codable {
    public var amount: UInt64?
    public var scriptPublicKey: RPCScriptPublicKey?
    public var blockDaaScore: UInt64?
    public var isCoinbase: Bool?
    public var verboseData: RPCScriptVerboseData?

    public init(
        amount: UInt64?, scriptPublicKey: RPCScriptPublicKey?, blockDaaScore: UInt64?, isCoinbase: Bool?,
        verboseData: RPCScriptVerboseData?
    ) {
        self.amount = amount
        self.scriptPublicKey = scriptPublicKey
        self.blockDaaScore = blockDaaScore
        self.isCoinbase = isCoinbase
        self.verboseData = verboseData
    }

    private enum CodingKeys: String, CodingKey {
        case amount, scriptPublicKey, blockDaaScore, isCoinbase, verboseData, covenantId
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        amount = try container.decodeIfPresent(UInt64.self, forKey: .amount)
        scriptPublicKey = try container.decodeIfPresent(RPCScriptPublicKey.self, forKey: .scriptPublicKey)
        blockDaaScore = try container.decodeIfPresent(UInt64.self, forKey: .blockDaaScore)
        isCoinbase = try container.decodeIfPresent(Bool.self, forKey: .isCoinbase)
        verboseData = try container.decodeIfPresent(RPCScriptVerboseData.self, forKey: .verboseData)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(amount, forKey: .amount)
        try container.encode(scriptPublicKey, forKey: .scriptPublicKey)
        try container.encode(blockDaaScore, forKey: .blockDaaScore)
        try container.encode(isCoinbase, forKey: .isCoinbase)
        try container.encode(verboseData, forKey: .verboseData)
        try container.encodeNil(forKey: .covenantId)
    }
}

/// A transaction's verbose data: its id and hash, compute mass (nil below the chain walk's High
/// level, §5), and the block that included it (zero hash and 0 in the mempool).
public struct RPCTransactionVerboseData: Sendable, Hashable, Codable {
    public var transactionId: [UInt8]
    public var hash: [UInt8]
    public var computeMass: UInt64?
    public var blockHash: [UInt8]
    public var blockTime: UInt64

    public init(transactionId: [UInt8], hash: [UInt8], computeMass: UInt64?, blockHash: [UInt8], blockTime: UInt64) {
        self.transactionId = transactionId
        self.hash = hash
        self.computeMass = computeMass
        self.blockHash = blockHash
        self.blockTime = blockTime
    }

    private enum CodingKeys: String, CodingKey { case transactionId, hash, computeMass, blockHash, blockTime }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        transactionId = try KaspaJSONHex.decodeHash(container, .transactionId)
        hash = try KaspaJSONHex.decodeHash(container, .hash)
        computeMass = try container.decodeIfPresent(UInt64.self, forKey: .computeMass)
        blockHash = try KaspaJSONHex.decodeHash(container, .blockHash)
        blockTime = try container.decodeIfPresent(UInt64.self, forKey: .blockTime) ?? 0
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Hex.encode(transactionId), forKey: .transactionId)
        try container.encode(Hex.encode(hash), forKey: .hash)
        try container.encode(computeMass, forKey: .computeMass)
        try container.encode(Hex.encode(blockHash), forKey: .blockHash)
        try container.encode(blockTime, forKey: .blockTime)
    }
}
