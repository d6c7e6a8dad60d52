import TandemBasics

/// Why a key, signature or shared secret could not be made from the given bytes.
public enum KaspaKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A private key must be 32 bytes.
    case privateKeyLength(Int)
    /// The private key text is not hex (the reason says where).
    case privateKeyNotHex(String)
    /// A private key must be in `1 ..< n` (the curve order).
    case privateKeyOutOfRange
    /// A compressed public key must be 33 bytes starting with 02 or 03.
    case publicKeyNotCompressed(length: Int, prefix: UInt8?)
    /// The bytes do not describe a point on secp256k1.
    case publicKeyNotOnCurve
    /// An x-only public key must be 32 bytes.
    case xOnlyKeyLength(Int)
    /// The x coordinate has no point on secp256k1.
    case xOnlyKeyNotOnCurve
    /// A BIP-340 or compact ECDSA signature must be 64 bytes.
    case signatureLength(Int)
    /// A signed message (a digest) must be 32 bytes.
    case messageLength(Int)
    /// libsecp256k1 refused an operation (for example ECDH producing the point at infinity).
    case operationFailed(String)

    public var description: String {
        switch self {
        case .privateKeyLength(let n): "private key must be 32 bytes, got \(n)"
        case .privateKeyNotHex(let reason): "private key is not hex: \(reason)"
        case .privateKeyOutOfRange: "private key must be between 1 and n-1 (the secp256k1 order)"
        case .publicKeyNotCompressed(let length, let prefix):
            "public key must be 33 bytes starting with 02 or 03, got \(length) bytes"
                + (prefix.map { " starting with \(Hex.encode([$0]))" } ?? "")
        case .publicKeyNotOnCurve: "public key is not on secp256k1"
        case .xOnlyKeyLength(let n): "x-only key must be 32 bytes, got \(n)"
        case .xOnlyKeyNotOnCurve: "x-only key is not on secp256k1"
        case .signatureLength(let n): "a signature must be 64 bytes, got \(n)"
        case .messageLength(let n): "a signed message must be 32 bytes, got \(n)"
        case .operationFailed(let what): "secp256k1 \(what) failed"
        }
    }
}
