import TandemBasics

/// A Kaspa transaction in the shape of the rusty-kaspa SDK (`Transaction.to_dict`), with each
/// input's UTXO entry attached (kasia-protocol §12: version 0, native subnetwork, gas 0).
///
/// The JSON form is the SDK's: `id` is written for readers and ignored when read (it is
/// recomputed), `mass` and `storageMass` are written as 0 and ignored, `computeBudget` and
/// `covenant` must be 0 and null.
public struct KaspaTransaction: Sendable, Hashable, Codable {
    /// The native subnetwork: 20 zero bytes.
    public static let nativeSubnetwork = [UInt8](repeating: 0, count: 20)

    public var version: UInt16
    public var inputs: [KaspaTransactionInput]
    public var outputs: [KaspaTransactionOutput]
    public var lockTime: UInt64
    public var subnetworkID: [UInt8]
    public var gas: UInt64
    public var payload: [UInt8]

    public init(
        version: UInt16 = 0, inputs: [KaspaTransactionInput], outputs: [KaspaTransactionOutput], lockTime: UInt64 = 0,
        subnetworkID: [UInt8] = KaspaTransaction.nativeSubnetwork, gas: UInt64 = 0, payload: [UInt8] = []
    ) {
        self.version = version
        self.inputs = inputs
        self.outputs = outputs
        self.lockTime = lockTime
        self.subnetworkID = subnetworkID
        self.gas = gas
        self.payload = payload
    }

    public var isNativeSubnetwork: Bool { subnetworkID == Self.nativeSubnetwork }

    /// The UTXO entries of all inputs, or the index of the first input without one.
    public func utxoEntries() throws(KaspaTransactionError) -> [KaspaUtxoEntry] {
        var entries: [KaspaUtxoEntry] = []
        entries.reserveCapacity(inputs.count)
        for (index, input) in inputs.enumerated() {
            guard let utxo = input.utxo else { throw .missingUTXO(input: index) }
            entries.append(utxo)
        }
        return entries
    }

    private enum CodingKeys: String, CodingKey {
        case id, version, inputs, outputs, lockTime, gas, payload, mass, storageMass
        case subnetworkID = "subnetworkId"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(UInt16.self, forKey: .version)
        inputs = try container.decode([KaspaTransactionInput].self, forKey: .inputs)
        outputs = try container.decode([KaspaTransactionOutput].self, forKey: .outputs)
        lockTime = try container.decodeIfPresent(UInt64.self, forKey: .lockTime) ?? 0
        subnetworkID = try KaspaJSONHex.decode(container, .subnetworkID, count: 20)
        gas = try container.decodeIfPresent(UInt64.self, forKey: .gas) ?? 0
        payload = try KaspaJSONHex.decodeOptional(container, .payload)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Hex.encode(id), forKey: .id)
        try container.encode(version, forKey: .version)
        try container.encode(inputs, forKey: .inputs)
        try container.encode(outputs, forKey: .outputs)
        try container.encode(lockTime, forKey: .lockTime)
        try container.encode(Hex.encode(subnetworkID), forKey: .subnetworkID)
        try container.encode(gas, forKey: .gas)
        try container.encode(Hex.encode(payload), forKey: .payload)
        try container.encode(UInt64(0), forKey: .mass)
        try container.encode(UInt64(0), forKey: .storageMass)
    }
}
