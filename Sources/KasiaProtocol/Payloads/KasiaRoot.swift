/// The root a Kasia payload is written under (kasia-protocol §16): Kasia's `ciph_msg:`, read by
/// Kasia web and KaChat alike, or KaChat's own `kchat:`, which only KaChat reads. Everything after
/// the root is byte-identical under both. The raw value is the name the CLI and JSON use.
public enum KasiaRoot: String, Sendable, CaseIterable, Codable {
    /// KaChat's root since 2026; Kasia web does not read it.
    case kchat
    /// The Kasia network's root, which every client reads: the one to write without evidence.
    case ciphMsg = "ciph_msg"

    /// The root and its closing `:` as written on chain.
    public var prefix: [UInt8] {
        switch self {
        case .kchat: Self.kchatPrefix
        case .ciphMsg: Self.ciphMsgPrefix
        }
    }

    private static let kchatPrefix = Array("kchat:".utf8)
    private static let ciphMsgPrefix = Array("ciph_msg:".utf8)

    /// The root `bytes` start with, or nil when they start with neither.
    public init?(startOf bytes: some Collection<UInt8>) {
        if bytes.starts(with: Self.ciphMsgPrefix) {
            self = .ciphMsg
        } else if bytes.starts(with: Self.kchatPrefix) {
            self = .kchat
        } else {
            return nil
        }
    }
}
