public import Foundation

/// `kaspa-tx-vectors.json`: the rusty-kaspa SDK's (PyPI `kaspa` 2.1.0) answers for the Kasia
/// transaction kinds. Transactions stay raw JSON so tests decode them with the model under test.
public struct KaspaTxVectors: Decodable, Sendable {
    public struct Script: Decodable, Sendable {
        public struct SPK: Decodable, Sendable {
            public let version: Int
            public let script: String
        }
        public let private_key: String
        public let address: String
        public let scriptPublicKey: SPK
        public let address_ecdsa: String
        public let scriptPublicKey_ecdsa: SPK
    }

    public struct Output: Decodable, Sendable {
        public let address: String
        public let value: UInt64
    }

    public struct Transaction: Decodable, Sendable {
        public let name: String
        public let kind: String
        public let outputs: [Output]
        public let payloadHex: String
        public let id: String
        public let sighashesSchnorrAll: [String]
        public let sighashesEcdsaAll: [String]
        public let massUnsigned: UInt64
        public let feeUnsigned: UInt64
        public let storageMass: UInt64
        public let massSigned: UInt64
        public let feeSigned: UInt64
        public let inputTotal: UInt64
        public let outputTotal: UInt64
    }

    public struct Reject: Decodable, Sendable {
        public let name: String
        public let outputs: [Output]
        public let storageMass: UInt64
        public let maximumStandardMass: UInt64
    }

    public let scripts: [Script]
    public let transactions: [Transaction]
    public let rejects: [Reject]

    public static func load() throws -> KaspaTxVectors {
        try Vectors.decode(KaspaTxVectors.self, from: "kaspa-tx-vectors")
    }

    /// The raw JSON of one section of transaction `index` (`unsignedTx`, `signedExample`, `utxos`),
    /// for decoding with the model under test.
    public static func rawJSON(transaction index: Int, field: String, section: String = "transactions") throws -> Data {
        let root = try JSONSerialization.jsonObject(with: Vectors.data(named: "kaspa-tx-vectors"))
        guard let object = root as? [String: Any], let list = object[section] as? [[String: Any]],
            list.indices.contains(index), let value = list[index][field]
        else { throw Vectors.LoadError.missing("\(section)[\(index)].\(field)") }
        return try JSONSerialization.data(withJSONObject: value)
    }
}
