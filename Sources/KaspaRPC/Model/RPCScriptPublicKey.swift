public import KaspaTransaction
import TandemBasics

/// A script public key as node frames carry it: one hex string, the script version as two bytes
/// big-endian and then the script (kaspa-node.md §3). `{"version", "script"}` objects are read too.
public struct RPCScriptPublicKey: Sendable, Hashable, Codable {
    public var value: KaspaScriptPublicKey

    public init(_ value: KaspaScriptPublicKey) { self.value = value }

    /// The wire text: `vvvv` + script hex.
    public var hex: String {
        Hex.encode([UInt8(value.version >> 8), UInt8(value.version & 0xff)] + value.script)
    }

    public init(hex text: String) throws(RPCDecodingError) {
        let bytes: [UInt8]
        do { bytes = try Hex.decode(text) } catch { throw .invalid("scriptPublicKey", error.description) }
        guard let value = Self.value(wireBytes: bytes) else {
            throw .invalid("scriptPublicKey", "shorter than its 2-byte version")
        }
        self.value = value
    }

    /// The key the wire's bytes (the hex decoded) stand for; nil when they are shorter than the version.
    static func value(wireBytes bytes: [UInt8]) -> KaspaScriptPublicKey? {
        guard bytes.count >= 2 else { return nil }
        return KaspaScriptPublicKey(version: UInt16(bytes[0]) << 8 | UInt16(bytes[1]), script: Array(bytes[2...]))
    }

    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = try RPCScriptPublicKey(hex: text)
        } else {
            value = try KaspaScriptPublicKey(from: decoder)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}

/// A node frame member that is present but not what the spec says it holds, or that is `null`
/// (left out by a verbosity level, kaspa-node.md §5) where the caller needs it.
public enum RPCDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalid(String, String)
    case missing(String)

    public var description: String {
        switch self {
        case .invalid(let member, let reason): "\(member): \(reason)"
        case .missing(let member): "\(member): null (left out at this verbosity level)"
        }
    }
}
