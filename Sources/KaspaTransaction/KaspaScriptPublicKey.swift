public import KaspaCrypto
import TandemBasics

/// A locking script with its script version (rusty-kaspa `ScriptPublicKey`).
public struct KaspaScriptPublicKey: Sendable, Hashable, Codable {
    public var version: UInt16
    public var script: [UInt8]

    public init(version: UInt16 = 0, script: [UInt8]) {
        self.version = version
        self.script = script
    }

    /// The standard script paying `address`: Schnorr `OP_DATA_32 x OP_CHECKSIG`, ECDSA
    /// `OP_DATA_33 key OP_CHECKSIG_ECDSA`, P2SH `OP_BLAKE2B OP_DATA_32 hash OP_EQUAL` (kasia-protocol §1).
    public init(address: KaspaAddress) {
        self.init(version: 0, script: address.scriptPublicKey)
    }

    /// The x-only key of a standard Schnorr pay-to-public-key script, if this is one.
    public var schnorrPublicKey: [UInt8]? {
        guard version == 0, script.count == 34, script[0] == 0x20, script[33] == 0xac else { return nil }
        return Array(script[1..<33])
    }

    /// The compressed key of a standard ECDSA pay-to-public-key script, if this is one.
    public var ecdsaPublicKey: [UInt8]? {
        guard version == 0, script.count == 35, script[0] == 0x21, script[34] == 0xab else { return nil }
        return Array(script[1..<34])
    }

    /// True for a standard pay-to-script-hash script: spending it runs the redeem script, which
    /// only a script engine can check.
    public var isScriptHash: Bool {
        version == 0 && script.count == 35 && script[0] == 0xaa && script[1] == 0x20 && script[34] == 0x87
    }

    /// The address this script pays, for the standard kinds; `nil` for anything else.
    public func address(network: KaspaNetwork) -> KaspaAddress? {
        guard version == 0 else { return nil }
        let s = script
        if s.count == 34, s[0] == 0x20, s[33] == 0xac {
            return try? KaspaAddress(network: network, version: .publicKey, payload: Array(s[1..<33]))
        }
        if s.count == 35, s[0] == 0x21, s[34] == 0xab {
            return try? KaspaAddress(network: network, version: .publicKeyECDSA, payload: Array(s[1..<34]))
        }
        if s.count == 35, s[0] == 0xaa, s[1] == 0x20, s[34] == 0x87 {
            return try? KaspaAddress(network: network, version: .scriptHash, payload: Array(s[2..<34]))
        }
        return nil
    }

    private enum CodingKeys: String, CodingKey { case version, script }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(UInt16.self, forKey: .version)
        script = try KaspaJSONHex.decode(container, .script)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(Hex.encode(script), forKey: .script)
    }
}
