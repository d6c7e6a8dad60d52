/// The six signature hash types: ALL, NONE or SINGLE, each optionally ANYONECANPAY
/// (rusty-kaspa `hashing/sighash_type.rs`). The type byte ends every signature script.
public struct KaspaSigHashType: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8

    public static let all = KaspaSigHashType(unchecked: 0x01)
    public static let none = KaspaSigHashType(unchecked: 0x02)
    public static let single = KaspaSigHashType(unchecked: 0x04)
    public static let allAnyoneCanPay = KaspaSigHashType(unchecked: 0x81)
    public static let noneAnyoneCanPay = KaspaSigHashType(unchecked: 0x82)
    public static let singleAnyoneCanPay = KaspaSigHashType(unchecked: 0x84)

    public static let allTypes: [KaspaSigHashType] = [
        .all, .none, .single, .allAnyoneCanPay, .noneAnyoneCanPay, .singleAnyoneCanPay,
    ]

    private init(unchecked rawValue: UInt8) { self.rawValue = rawValue }

    /// Accepts exactly the six defined values; nodes reject any other byte.
    public init(rawValue: UInt8) throws(KaspaTransactionError) {
        guard [0x01, 0x02, 0x04, 0x81, 0x82, 0x84].contains(rawValue) else { throw .sighashType(rawValue) }
        self.rawValue = rawValue
    }

    /// `all`, `none`, `single`, and each with `-anyonecanpay`.
    public init?(name: String) {
        guard let found = Self.allTypes.first(where: { $0.description == name.lowercased() }) else { return nil }
        self = found
    }

    public var isAnyoneCanPay: Bool { rawValue & 0x80 != 0 }
    public var isNone: Bool { rawValue & 0x1f == 0x02 }
    public var isSingle: Bool { rawValue & 0x1f == 0x04 }

    public var description: String {
        let base = isNone ? "none" : isSingle ? "single" : "all"
        return isAnyoneCanPay ? base + "-anyonecanpay" : base
    }
}
