/// Why a string is not a Kaspa address, or why an address cannot serve a purpose.
public enum KaspaAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    case missingPrefix
    case unknownPrefix(String)
    case invalidCharacter(Character)
    case tooShort
    case checksumMismatch
    case nonZeroPadding
    case unknownVersion(UInt8)
    case payloadLength(Int, version: UInt8)
    /// A script-hash address carries no public key, so nothing can be encrypted to it.
    case noPublicKey
    /// Deterministic aliases need the x-only key of a version-0 (Schnorr) address.
    case notSchnorr(KaspaAddressVersion)
    /// The payload does not make a valid public key.
    case invalidPublicKey(KaspaKeyError)

    public var description: String {
        switch self {
        case .missingPrefix: "address prefix missing"
        case .unknownPrefix(let p): "unknown address prefix '\(p)'"
        case .invalidCharacter(let c): "invalid address character '\(c)'"
        case .tooShort: "address body too short"
        case .checksumMismatch: "address checksum mismatch"
        case .nonZeroPadding: "address has non-zero padding bits"
        case .unknownVersion(let v): "unknown address version \(v)"
        case .payloadLength(let n, let v): "bad payload length \(n) for version \(v)"
        case .noPublicKey: "script-hash address carries no public key"
        case .notSchnorr: "deterministic aliases need a v0 (Schnorr) address"
        case .invalidPublicKey(let error): error.description
        }
    }
}
