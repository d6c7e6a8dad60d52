import Foundation

/// A Decodable mirror of `kasia-vectors.json` (the sections the tests read).
public struct KasiaVectors: Decodable, Sendable {
    public struct Key: Decodable, Sendable {
        public let name: String
        public let private_key: String
        public let public_key_compressed: String
        public let y_parity: String
        public let xonly: String
        public let address_mainnet: String
        public let address_testnet: String
        public let address_mainnet_ecdsa: String
        public let address_testnet_ecdsa: String
        public let script_public_key_mainnet: String
        public let recipient_pubkey_from_address: String
    }

    public struct P2SH: Decodable, Sendable {
        public let script_hash: String
        public let address_mainnet: String
        public let address_testnet: String
    }

    public struct AliasSet: Decodable, Sendable {
        public let A_myAlias: String
        public let A_theirAlias: String
        public let B_myAlias: String
        public let B_theirAlias: String
        public let hkdf_info_A_myAlias_hex: String?
    }

    public struct AliasPairVector: Decodable, Sendable {
        public let A: String
        public let B: String
        public let A_address: String
        public let B_address: String
        public let ecdh_x: String
        public let libsecp256k1_default_ecdh_output_for_contrast: String
        public let chat: AliasSet
        public let dm_alias_v1: AliasSet
        public let testnet_aliases_same_as_mainnet: Bool
    }

    public struct Encryption: Decodable, Sendable {
        public let recipient: String
        public let recipient_address: String
        public let plaintext_utf8: String
        public let ephemeral_private_key: String
        public let ephemeral_public_key: String
        public let nonce: String
        public let ecdh_x: String
        public let chacha_key: String
        public let sealed_hex: String
        public let sealed_base64: String
        public let sealed_len: Int
        public let decrypts_with: [String]
    }

    public struct Malformed: Decodable, Sendable {
        public let input_kind: String
        public let `case`: String
        public let expect: String
        public let error: String
        public let address: String?
        public let sealed_hex: String?
        public let private_key: String?
        public let plaintext: String?
        public let tx_payload_hex: String?
    }

    public let keys: [Key]
    public let p2sh_example: P2SH
    public let alias_pairs: [AliasPairVector]
    public let parity_note: String
    public let encryption: [Encryption]
    public let malformed: [Malformed]

    public static func load() throws -> KasiaVectors {
        try Vectors.decode(KasiaVectors.self, from: "kasia-vectors")
    }

    public func key(named name: String) -> Key? { keys.first { $0.name == name } }
}

/// Loosely typed sections (mixed value types, nulls) read with `JSONSerialization`.
public enum KasiaLooseVectors {
    public static func root() throws -> [String: Any] {
        guard let root = try JSONSerialization.jsonObject(with: Vectors.data(named: "kasia-vectors")) as? [String: Any]
        else { throw Vectors.LoadError.notAnObject("kasia-vectors") }
        return root
    }

    /// `tx_payloads.items`.
    public static func txPayloadItems() throws -> [[String: Any]] {
        ((try root()["tx_payloads"] as? [String: Any])?["items"] as? [[String: Any]]) ?? []
    }

    /// `tx_payloads.plaintexts`.
    public static func txPlaintexts() throws -> [String: String] {
        ((try root()["tx_payloads"] as? [String: Any])?["plaintexts"] as? [String: String]) ?? [:]
    }

    /// `handshake_examples`.
    public static func handshakeExamples() throws -> [[String: Any]] {
        (try root()["handshake_examples"] as? [[String: Any]]) ?? []
    }
}
