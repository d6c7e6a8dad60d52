public import KaspaTransaction
import TandemBasics

/// A transaction as node frames carry it (`RpcTransaction`, kaspa-node.md §3): what a wallet
/// submits, what mempool entries and the chain walk return.
///
/// The chain walk (`getVirtualChainFromBlockV2`, §5) leaves out what its verbosity level does not
/// ask for, as `null`: `version`, `lockTime`, `subnetworkId` and `gas` below Full, `payload` and
/// `mass` below High (and each input's outpoint, sequence, sig-op count and compute budget).
/// Those members are optional here, and written as `null` when nil. At None a real node lists the
/// inputs and outputs with every member `null` (kaspa-node.md §11), which this model does not
/// read: a None page is read as ``RPCVirtualChainHashes``. A submission has every member
/// (``RPCSubmitTransaction`` refuses one that does not).
public struct RPCTransaction: Sendable, Hashable, Codable {
    public var version: UInt16?
    public var inputs: [RPCTransactionInput]
    public var outputs: [RPCTransactionOutput]
    public var lockTime: UInt64?
    public var subnetworkId: [UInt8]?
    public var gas: UInt64?
    /// Nil when the chain walk's level is below High; `[]` for a transaction without payload.
    public var payload: [UInt8]?
    /// The storage mass (`storageMass`, and `mass` under its deprecated name); nil below High.
    public var mass: UInt64?
    public var verboseData: RPCTransactionVerboseData?

    public init(
        version: UInt16?, inputs: [RPCTransactionInput], outputs: [RPCTransactionOutput], lockTime: UInt64?,
        subnetworkId: [UInt8]?, gas: UInt64?, payload: [UInt8]?, mass: UInt64? = 0,
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
    /// an outpoint it does not know (the input is then left without one). The Full-level members
    /// default to a native version-0 transaction's when null; a null payload or input outpoint,
    /// sequence or sig-op count (a chain walk below High) cannot be filled in and is refused,
    /// naming the member.
    public func kaspaTransaction(
        utxo: (KaspaOutpoint) -> KaspaUtxoEntry?
    ) throws(RPCDecodingError) -> KaspaTransaction {
        guard let payload else { throw .missing("payload") }
        var kaspaInputs: [KaspaTransactionInput] = []
        kaspaInputs.reserveCapacity(inputs.count)
        for (index, input) in inputs.enumerated() {
            guard let outpoint = input.previousOutpoint else { throw .missing("inputs[\(index)].previousOutpoint") }
            guard let sequence = input.sequence else { throw .missing("inputs[\(index)].sequence") }
            guard let sigOpCount = input.sigOpCount else { throw .missing("inputs[\(index)].sigOpCount") }
            kaspaInputs.append(
                KaspaTransactionInput(
                    previousOutpoint: outpoint, signatureScript: input.signatureScript, sequence: sequence,
                    sigOpCount: sigOpCount, utxo: utxo(outpoint)))
        }
        return KaspaTransaction(
            version: version ?? 0, inputs: kaspaInputs,
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
        inputs = try container.decodeIfPresent([RPCTransactionInput].self, forKey: .inputs) ?? []
        outputs = try container.decodeIfPresent([RPCTransactionOutput].self, forKey: .outputs) ?? []
        lockTime = try container.decodeIfPresent(UInt64.self, forKey: .lockTime)
        let hasSubnetwork = try container.contains(.subnetworkId) && !container.decodeNil(forKey: .subnetworkId)
        subnetworkId = hasSubnetwork ? try KaspaJSONHex.decode(container, .subnetworkId, count: 20) : nil
        gas = try container.decodeIfPresent(UInt64.self, forKey: .gas)
        let hasPayload = try container.contains(.payload) && !container.decodeNil(forKey: .payload)
        payload = hasPayload ? try KaspaJSONHex.decode(container, .payload) : nil
        // `mass` is the deprecated name of `storageMass`; either may come, both are the same value.
        mass =
            try container.decodeIfPresent(UInt64.self, forKey: .storageMass)
            ?? container.decodeIfPresent(UInt64.self, forKey: .mass)
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
        try container.encode(payload.map { Hex.encode($0) }, forKey: .payload)
        try container.encode(mass, forKey: .storageMass)
        try container.encode(mass, forKey: .mass)
        try container.encode(verboseData, forKey: .verboseData)
    }
}

/// `RpcTransactionInput`: computeBudget is 0 for version-0 transactions; verbose data carries the
/// spent UTXO (and so the sender) in chain-walk answers. Below High the chain walk sends only the
/// signature script and the sender (§5): the other members are then nil.
public struct RPCTransactionInput: Sendable, Hashable, Codable {
    public var previousOutpoint: KaspaOutpoint?
    public var signatureScript: [UInt8]
    public var sequence: UInt64?
    public var sigOpCount: UInt8?
    public var computeBudget: UInt16?
    public var verboseData: RPCTransactionInputVerboseData?

    public init(
        previousOutpoint: KaspaOutpoint?, signatureScript: [UInt8], sequence: UInt64?, sigOpCount: UInt8?,
        computeBudget: UInt16? = 0, verboseData: RPCTransactionInputVerboseData? = nil
    ) {
        self.previousOutpoint = previousOutpoint
        self.signatureScript = signatureScript
        self.sequence = sequence
        self.sigOpCount = sigOpCount
        self.computeBudget = computeBudget
        self.verboseData = verboseData
    }

    private enum CodingKeys: String, CodingKey {
        case previousOutpoint, signatureScript, sequence, sigOpCount, computeBudget, verboseData
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        previousOutpoint = try container.decodeIfPresent(KaspaOutpoint.self, forKey: .previousOutpoint)
        signatureScript = try KaspaJSONHex.decodeOptional(container, .signatureScript)
        sequence = try container.decodeIfPresent(UInt64.self, forKey: .sequence)
        sigOpCount = try container.decodeIfPresent(UInt8.self, forKey: .sigOpCount)
        // A submission may leave it out (it is 0 for version-0 transactions); `null` is a level's gap.
        computeBudget =
            container.contains(.computeBudget)
            ? try container.decodeIfPresent(UInt16.self, forKey: .computeBudget) : 0
        verboseData = try container.decodeIfPresent(RPCTransactionInputVerboseData.self, forKey: .verboseData)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(previousOutpoint, forKey: .previousOutpoint)
        try container.encode(Hex.encode(signatureScript), forKey: .signatureScript)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(sigOpCount, forKey: .sigOpCount)
        try container.encode(computeBudget, forKey: .computeBudget)
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
