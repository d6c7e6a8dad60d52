public import KaspaTransaction
import TandemBasics

/// A transaction as node frames carry it (`RpcTransaction`, kaspa-node.md §3): what a wallet
/// submits, what mempool entries and the chain walk return. Members the requested verbosity
/// leaves out are null (§5): here `version`, `lockTime`, `subnetworkId` and `gas`, which only
/// the Full level fills.
public struct RPCTransaction: Sendable, Hashable, Codable {
    public var version: UInt16?
    public var inputs: [RPCTransactionInput]
    public var outputs: [RPCTransactionOutput]
    public var lockTime: UInt64?
    public var subnetworkId: [UInt8]?
    public var gas: UInt64?
    public var payload: [UInt8]
    public var mass: UInt64
    public var verboseData: RPCTransactionVerboseData?

    public init(
        version: UInt16?, inputs: [RPCTransactionInput], outputs: [RPCTransactionOutput], lockTime: UInt64?,
        subnetworkId: [UInt8]?, gas: UInt64?, payload: [UInt8], mass: UInt64 = 0,
        verboseData: RPCTransactionVerboseData? = nil
    ) {
        self.version = version
        self.inputs = inputs
        self.outputs = outputs
        self.lockTime = lockTime
        self.subnetworkId = subnetworkId
        self.gas = gas
        self.payload = payload
        self.mass = mass
        self.verboseData = verboseData
    }

    /// The submission form of a signed transaction: no verbose data, mass 0 (the node computes it).
    public init(_ transaction: KaspaTransaction) {
        self.init(
            version: transaction.version,
            inputs: transaction.inputs.map {
                RPCTransactionInput(
                    previousOutpoint: $0.previousOutpoint, signatureScript: $0.signatureScript, sequence: $0.sequence,
                    sigOpCount: $0.sigOpCount)
            },
            outputs: transaction.outputs.map {
                RPCTransactionOutput(value: $0.value, scriptPublicKey: $0.scriptPublicKey)
            },
            lockTime: transaction.lockTime, subnetworkId: transaction.subnetworkID, gas: transaction.gas,
            payload: transaction.payload)
    }

    /// The transaction with each input's UTXO entry attached from `utxo`, which answers nil for
    /// an outpoint it does not know (the input is then left without one).
    public func kaspaTransaction(utxo: (KaspaOutpoint) -> KaspaUtxoEntry?) -> KaspaTransaction {
        KaspaTransaction(
            version: version ?? 0,
            inputs: inputs.map {
                KaspaTransactionInput(
                    previousOutpoint: $0.previousOutpoint, signatureScript: $0.signatureScript, sequence: $0.sequence,
                    sigOpCount: $0.sigOpCount, utxo: utxo($0.previousOutpoint))
            },
            outputs: outputs.map { KaspaTransactionOutput(value: $0.value, scriptPublicKey: $0.scriptPublicKey.value) },
            lockTime: lockTime ?? 0, subnetworkID: subnetworkId ?? KaspaTransaction.nativeSubnetwork, gas: gas ?? 0,
            payload: payload)
    }

    private enum CodingKeys: String, CodingKey {
        case version, inputs, outputs, lockTime, subnetworkId, gas, payload, storageMass, mass, verboseData
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeIfPresent(UInt16.self, forKey: .version)
        inputs = try container.decode([RPCTransactionInput].self, forKey: .inputs)
        outputs = try container.decode([RPCTransactionOutput].self, forKey: .outputs)
        lockTime = try container.decodeIfPresent(UInt64.self, forKey: .lockTime)
        let hasSubnetwork = try container.contains(.subnetworkId) && !container.decodeNil(forKey: .subnetworkId)
        subnetworkId = hasSubnetwork ? try KaspaJSONHex.decode(container, .subnetworkId, count: 20) : nil
        gas = try container.decodeIfPresent(UInt64.self, forKey: .gas)
        payload = try KaspaJSONHex.decodeOptional(container, .payload)
        // `mass` is the deprecated name of `storageMass`; either may come, both are the same value.
        mass =
            try container.decodeIfPresent(UInt64.self, forKey: .storageMass)
            ?? container.decodeIfPresent(UInt64.self, forKey: .mass) ?? 0
        verboseData = try container.decodeIfPresent(RPCTransactionVerboseData.self, forKey: .verboseData)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(inputs, forKey: .inputs)
        try container.encode(outputs, forKey: .outputs)
        try container.encode(lockTime, forKey: .lockTime)
        try container.encode(subnetworkId.map { Hex.encode($0) }, forKey: .subnetworkId)
        try container.encode(gas, forKey: .gas)
        try container.encode(Hex.encode(payload), forKey: .payload)
        try container.encode(mass, forKey: .storageMass)
        try container.encode(mass, forKey: .mass)
        try container.encode(verboseData, forKey: .verboseData)
    }
}

/// `RpcTransactionInput`: computeBudget is 0 for version-0 transactions; verbose data carries the
/// spent UTXO (and so the sender) in chain-walk answers.
public struct RPCTransactionInput: Sendable, Hashable, Codable {
    public var previousOutpoint: KaspaOutpoint
    public var signatureScript: [UInt8]
    public var sequence: UInt64
    public var sigOpCount: UInt8
    public var verboseData: RPCTransactionInputVerboseData?

    public init(
        previousOutpoint: KaspaOutpoint, signatureScript: [UInt8], sequence: UInt64, sigOpCount: UInt8,
        verboseData: RPCTransactionInputVerboseData? = nil
    ) {
        self.previousOutpoint = previousOutpoint
        self.signatureScript = signatureScript
        self.sequence = sequence
        self.sigOpCount = sigOpCount
        self.verboseData = verboseData
    }

    private enum CodingKeys: String, CodingKey {
        case previousOutpoint, signatureScript, sequence, sigOpCount, computeBudget, verboseData
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        previousOutpoint = try container.decode(KaspaOutpoint.self, forKey: .previousOutpoint)
        signatureScript = try KaspaJSONHex.decodeOptional(container, .signatureScript)
        sequence = try container.decodeIfPresent(UInt64.self, forKey: .sequence) ?? 0
        sigOpCount = try container.decodeIfPresent(UInt8.self, forKey: .sigOpCount) ?? 0
        verboseData = try container.decodeIfPresent(RPCTransactionInputVerboseData.self, forKey: .verboseData)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(previousOutpoint, forKey: .previousOutpoint)
        try container.encode(Hex.encode(signatureScript), forKey: .signatureScript)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(sigOpCount, forKey: .sigOpCount)
        try container.encode(UInt64(0), forKey: .computeBudget)
        try container.encode(verboseData, forKey: .verboseData)
    }
}

/// `RpcTransactionOutput`: value and script; verbose data names the script's class and address.
public struct RPCTransactionOutput: Sendable, Hashable, Codable {
    public var value: UInt64
    public var scriptPublicKey: RPCScriptPublicKey
    public var verboseData: RPCScriptVerboseData?

    public init(value: UInt64, scriptPublicKey: KaspaScriptPublicKey, verboseData: RPCScriptVerboseData? = nil) {
        self.value = value
        self.scriptPublicKey = RPCScriptPublicKey(scriptPublicKey)
        self.verboseData = verboseData
    }

    private enum CodingKeys: String, CodingKey { case value, scriptPublicKey, verboseData, covenant }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decode(UInt64.self, forKey: .value)
        scriptPublicKey = try container.decode(RPCScriptPublicKey.self, forKey: .scriptPublicKey)
        verboseData = try container.decodeIfPresent(RPCScriptVerboseData.self, forKey: .verboseData)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        try container.encode(scriptPublicKey, forKey: .scriptPublicKey)
        try container.encode(verboseData, forKey: .verboseData)
        try container.encodeNil(forKey: .covenant)
    }
}

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

/// A transaction's verbose data: its id and hash, compute mass, and the block that included it
/// (zero hash and 0 in the mempool).
public struct RPCTransactionVerboseData: Sendable, Hashable, Codable {
    public var transactionId: [UInt8]
    public var hash: [UInt8]
    public var computeMass: UInt64
    public var blockHash: [UInt8]
    public var blockTime: UInt64

    public init(transactionId: [UInt8], hash: [UInt8], computeMass: UInt64, blockHash: [UInt8], blockTime: UInt64) {
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
        computeMass = try container.decodeIfPresent(UInt64.self, forKey: .computeMass) ?? 0
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
