import Foundation

/// The other body of `POST /kasia/transactions` (issue 15 item 4): a signed Kaspa transaction,
/// each input with its UTXO entry, in the SDK's JSON form (`Transaction.to_dict`).
///
/// Wire form: `{"transaction": {…}}`. The relay verifies every input's signature against its
/// UTXO's script and then files the transaction as the kasia-indexer would: sender = the first
/// input's address, receiver and amount = the first output, `tx_id` = the Kaspa transaction id,
/// payload = the transaction's payload.
///
/// The transaction is a DTO of plain values (hex strings, integers), so the modules that speak
/// this API do not link KaspaTransaction and its BLAKE2b. KaspaTransaction's `Codable` form is
/// the same JSON: ``RelayKaspaTransaction/init(converting:)`` turns one into the other, and the
/// server reads the body with KaspaTransaction's strict reader.
public struct RelayKaspaSubmission: RequestBody {
    public var transaction: RelayKaspaTransaction

    public init(transaction: RelayKaspaTransaction) {
        self.transaction = transaction
    }

    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case transaction
    }

    public typealias Field = CodingKeys
}

/// A Kaspa transaction in the SDK's JSON form: version 0, the native subnetwork, gas 0; `id` is
/// the transaction id (the server recomputes it), `mass` and `storageMass` are written as 0.
public struct RelayKaspaTransaction: Codable, Sendable, Hashable {
    public var id: String
    public var version: UInt16
    public var inputs: [Input]
    public var outputs: [Output]
    public var lockTime: UInt64
    public var subnetworkId: String
    public var gas: UInt64
    public var payload: String
    public var mass: UInt64
    public var storageMass: UInt64

    public init(
        id: String, version: UInt16 = 0, inputs: [Input], outputs: [Output], lockTime: UInt64 = 0,
        subnetworkId: String = String(repeating: "0", count: 40), gas: UInt64 = 0, payload: String,
        mass: UInt64 = 0, storageMass: UInt64 = 0
    ) {
        self.id = id
        self.version = version
        self.inputs = inputs
        self.outputs = outputs
        self.lockTime = lockTime
        self.subnetworkId = subnetworkId
        self.gas = gas
        self.payload = payload
        self.mass = mass
        self.storageMass = storageMass
    }

    /// The DTO of a value whose JSON is this form (KaspaTransaction's is): it is encoded once and
    /// read back, so the two cannot drift apart.
    public init(converting transaction: some Encodable) throws {
        self = try JSONDecoder().decode(Self.self, from: JSONEncoder().encode(transaction))
    }

    /// The spent output: a transaction id (hex, 32 bytes) and an output index.
    public struct Outpoint: Codable, Sendable, Hashable {
        public var transactionId: String
        public var index: UInt32

        public init(transactionId: String, index: UInt32) {
            self.transactionId = transactionId
            self.index = index
        }
    }

    /// A locking script (hex) and its version.
    public struct ScriptPublicKey: Codable, Sendable, Hashable {
        public var version: UInt16
        public var script: String

        public init(version: UInt16 = 0, script: String) {
            self.version = version
            self.script = script
        }
    }

    /// The UTXO an input spends, as the SDK's `UtxoEntry.to_dict` writes it.
    public struct UtxoEntry: Codable, Sendable, Hashable {
        public var address: String?
        public var outpoint: Outpoint
        public var amount: UInt64
        public var scriptPublicKey: ScriptPublicKey
        public var blockDaaScore: UInt64
        public var isCoinbase: Bool
        public var covenantId: String?

        public init(
            address: String?, outpoint: Outpoint, amount: UInt64, scriptPublicKey: ScriptPublicKey,
            blockDaaScore: UInt64 = 0, isCoinbase: Bool = false, covenantId: String? = nil
        ) {
            self.address = address
            self.outpoint = outpoint
            self.amount = amount
            self.scriptPublicKey = scriptPublicKey
            self.blockDaaScore = blockDaaScore
            self.isCoinbase = isCoinbase
            self.covenantId = covenantId
        }

        private enum CodingKeys: String, CodingKey {
            case address, outpoint, amount, scriptPublicKey, blockDaaScore, isCoinbase, covenantId
        }

        /// Writes `address` and `covenantId` as `null` when absent, as the SDK does.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(address, forKey: .address)
            try container.encode(outpoint, forKey: .outpoint)
            try container.encode(amount, forKey: .amount)
            try container.encode(scriptPublicKey, forKey: .scriptPublicKey)
            try container.encode(blockDaaScore, forKey: .blockDaaScore)
            try container.encode(isCoinbase, forKey: .isCoinbase)
            try container.encode(covenantId, forKey: .covenantId)
        }
    }

    /// An input: `signatureScript` is `0x41 ‖ sig64 ‖ sighash type` once signed, `null` before.
    public struct Input: Codable, Sendable, Hashable {
        public var previousOutpoint: Outpoint
        public var signatureScript: String?
        public var sequence: UInt64
        public var sigOpCount: UInt8
        public var computeBudget: UInt64
        public var utxo: UtxoEntry?

        public init(
            previousOutpoint: Outpoint, signatureScript: String?, sequence: UInt64 = 0, sigOpCount: UInt8 = 1,
            computeBudget: UInt64 = 0, utxo: UtxoEntry?
        ) {
            self.previousOutpoint = previousOutpoint
            self.signatureScript = signatureScript
            self.sequence = sequence
            self.sigOpCount = sigOpCount
            self.computeBudget = computeBudget
            self.utxo = utxo
        }

        private enum CodingKeys: String, CodingKey {
            case previousOutpoint, signatureScript, sequence, sigOpCount, computeBudget, utxo
        }

        /// Writes `signatureScript` and `utxo` as `null` when absent, as the SDK does.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(previousOutpoint, forKey: .previousOutpoint)
            try container.encode(signatureScript, forKey: .signatureScript)
            try container.encode(sequence, forKey: .sequence)
            try container.encode(sigOpCount, forKey: .sigOpCount)
            try container.encode(computeBudget, forKey: .computeBudget)
            try container.encode(utxo, forKey: .utxo)
        }
    }

    /// An output: its value in sompi and locking script; `covenant` is always `null` here.
    public struct Output: Codable, Sendable, Hashable {
        public var value: UInt64
        public var scriptPublicKey: ScriptPublicKey

        public init(value: UInt64, scriptPublicKey: ScriptPublicKey) {
            self.value = value
            self.scriptPublicKey = scriptPublicKey
        }

        private enum CodingKeys: String, CodingKey { case value, scriptPublicKey, covenant }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            value = try container.decode(UInt64.self, forKey: .value)
            scriptPublicKey = try container.decode(ScriptPublicKey.self, forKey: .scriptPublicKey)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(value, forKey: .value)
            try container.encode(scriptPublicKey, forKey: .scriptPublicKey)
            try container.encodeNil(forKey: .covenant)
        }
    }
}
