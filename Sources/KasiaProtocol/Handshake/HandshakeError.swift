/// Why a decrypted handshake (or saved-handshake stash) plaintext was rejected
/// (kasia-protocol §5.1, §5.4).
public enum HandshakeError: Error, Equatable, Sendable, CustomStringConvertible {
    case notJSON(String)
    case notAnObject
    case notAHandshake(type: String)
    /// Old web clients reject `version > 1`, so nobody may send one (seed §4.4, §7 item 4).
    case unsupportedVersion(Double)
    case invalidAlias(field: String)
    /// A field has the wrong JSON type (e.g. `isResponse` as a string).
    case invalidField(String)
    /// A self-stash must name the partner.
    case missingPartnerAddress
    /// A handshake we write could not be encoded as canonical JSON (a bug, never sent as `{}`).
    case notEncodable(String)

    public var description: String {
        switch self {
        case .notJSON: "handshake plaintext is not JSON"
        case .notAnObject: "handshake JSON is not an object"
        case .notAHandshake(let type): "not a handshake (type='\(type)')"
        case .unsupportedVersion(let v):
            "unsupported handshake version \(Int64(exactly: v).map(String.init) ?? String(v))"
        case .invalidAlias(let field):
            field == "alias" ? "alias must be 12 hex characters" : "\(field) must be 12 hex characters"
        case .invalidField(let name): "handshake field '\(name)' has the wrong type"
        case .missingPartnerAddress: "saved handshake has no partnerAddress"
        case .notEncodable(let reason): "handshake cannot be encoded: \(reason)"
        }
    }
}
