/// Why a BIP-32 key, path or serialised extended key was refused.
public enum HDKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A BIP-32 seed is 16 to 64 bytes.
    case seedLength(Int)
    /// The seed's master key is 0 or not below n (BIP-32: use another seed; chance below 2⁻¹²⁷).
    case invalidMasterKey
    /// This child's key is invalid (BIP-32: proceed with the next index; chance below 2⁻¹²⁷).
    case invalidChild(ChildNumber)
    /// A public key cannot derive a hardened child.
    case hardenedFromPublic(ChildNumber)
    /// An index must be below 2³¹ (the top bit marks hardened).
    case indexOutOfRange(UInt32)
    /// Not `m` followed by `/`-separated indices.
    case malformedPath(String)

    public var description: String {
        switch self {
        case .seedLength(let n): "a BIP-32 seed is 16 to 64 bytes, not \(n)"
        case .invalidMasterKey: "this seed gives no valid master key"
        case .invalidChild(let child): "child \(child) has no valid key"
        case .hardenedFromPublic(let child): "a public key cannot derive the hardened child \(child)"
        case .indexOutOfRange(let index): "a child index is below 2^31, not \(index)"
        case .malformedPath(let path): "not a derivation path like m/44'/111111'/0'/0/0: \(path)"
        }
    }
}
