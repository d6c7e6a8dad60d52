/// `kaspa-hd-vectors.json`: what the rusty-kaspa SDK (PyPI `kaspa` 2.1.0) derives from fixed
/// phrases (`.ci/kaspa-hd-sdk-check.py --write-vectors`; CI also checks fresh random ones).
public struct KaspaHDVectors: Decodable, Sendable {
    public struct Address: Decodable, Sendable {
        public let chain: String
        public let index: UInt32
        public let address: String
    }
    public struct Vector: Decodable, Sendable {
        public let entropy: String
        public let mnemonic: String
        public let passphrase: String
        public let account: UInt32
        public let seed: String
        public let kprv: String
        public let kpub: String
        public let addresses: [Address]
    }
    public let vectors: [Vector]

    public static func load() throws -> KaspaHDVectors {
        try Vectors.decode(KaspaHDVectors.self, from: "kaspa-hd-vectors")
    }
}
