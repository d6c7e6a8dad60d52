import CNettle
import Crypto
import KaspaCrypto

/// RIPEMD-160(SHA-256(bytes)): BIP-32's key identifier, whose first four bytes are the
/// fingerprint an extended key records of its parent. RIPEMD-160 is Debian's libnettle.
enum Hash160 {
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        let sha = Array(SHA256.hash(data: bytes))
        var context = ripemd160_ctx()
        var out = [UInt8](repeating: 0, count: 20)
        nettle_ripemd160_init(&context)
        nettle_ripemd160_update(&context, sha.count, sha)
        nettle_ripemd160_digest(&context, out.count, &out)
        return out
    }

    /// The first four bytes of the identifier of a compressed public key.
    static func fingerprint(of publicKey: PublicKey) -> [UInt8] {
        Array(digest(publicKey.compressedRepresentation).prefix(4))
    }
}
