import TandemBasics

/// One input: the outpoint it spends, its unlocking script, and the UTXO entry it spends
/// (kept with the input, as the SDK does, because sighashes and storage mass need it).
public struct KaspaTransactionInput: Sendable, Hashable, Codable {
    public var previousOutpoint: KaspaOutpoint
    /// Empty until signed; then `0x41 ‖ sig64 ‖ sighash type` (kasia-protocol §12).
    public var signatureScript: [UInt8]
    public var sequence: UInt64
    public var sigOpCount: UInt8
    public var utxo: KaspaUtxoEntry?

    public init(
        previousOutpoint: KaspaOutpoint, signatureScript: [UInt8] = [], sequence: UInt64 = 0, sigOpCount: UInt8 = 1,
        utxo: KaspaUtxoEntry? = nil
    ) {
        self.previousOutpoint = previousOutpoint
        self.signatureScript = signatureScript
        self.sequence = sequence
        self.sigOpCount = sigOpCount
        self.utxo = utxo
    }

    /// The input that spends `utxo`, with KaChat's sequence 0 and one sigop.
    public init(spending utxo: KaspaUtxoEntry) {
        self.init(previousOutpoint: utxo.outpoint, utxo: utxo)
    }

    private enum CodingKeys: String, CodingKey {
        case previousOutpoint, signatureScript, sequence, sigOpCount, computeBudget, utxo
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        previousOutpoint = try container.decode(KaspaOutpoint.self, forKey: .previousOutpoint)
        signatureScript = try KaspaJSONHex.decodeOptional(container, .signatureScript)
        sequence = try container.decodeIfPresent(UInt64.self, forKey: .sequence) ?? 0
        sigOpCount = try container.decodeIfPresent(UInt8.self, forKey: .sigOpCount) ?? 1
        utxo = try container.decodeIfPresent(KaspaUtxoEntry.self, forKey: .utxo)
        // Compute budgets belong to later transaction versions; version 0 has none.
        if let budget = try container.decodeIfPresent(UInt64.self, forKey: .computeBudget), budget != 0 {
            throw DecodingError.dataCorruptedError(
                forKey: .computeBudget, in: container, debugDescription: "computeBudget: only 0 is supported")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(previousOutpoint, forKey: .previousOutpoint)
        try container.encode(signatureScript.isEmpty ? nil : Hex.encode(signatureScript), forKey: .signatureScript)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(sigOpCount, forKey: .sigOpCount)
        try container.encode(UInt64(0), forKey: .computeBudget)
        try container.encode(utxo, forKey: .utxo)
    }
}
