import TandemBasics

/// The most a send may pay (issue 50 item 1). A node's fee estimate, and the floor it states when
/// it refuses a fee as too low, are claims, not orders: a send above either limit is refused
/// before anything is submitted. A profile keeps its own (``KaspaNetworkSettings/feeLimits``);
/// one send may pass others.
public struct WalletFeeLimits: Sendable, Equatable, Codable {
    /// Sompi per gram of mass.
    public var maxFeerate: Double
    /// Sompi, the whole fee of one transaction.
    public var maxFee: UInt64

    /// 100 × the network's relay floor of 100 sompi per gram.
    public static let defaultMaxFeerate: Double = 10_000
    /// 1 KAS.
    public static let defaultMaxFee: UInt64 = KaspaAmount.sompiPerKAS

    public init(maxFeerate: Double = defaultMaxFeerate, maxFee: UInt64 = defaultMaxFee) {
        self.maxFeerate = maxFeerate
        self.maxFee = maxFee
    }

    /// A fee rate as people read it: whole sompi per gram without decimals.
    public static func text(feerate value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Why a send would break a limit, or nil when it keeps within both.
    func breach(feerate: Double) -> WalletError? {
        guard feerate.isFinite, feerate >= 0 else { return .feerateAboveLimit(asked: .infinity, limit: maxFeerate) }
        return feerate > maxFeerate ? .feerateAboveLimit(asked: feerate, limit: maxFeerate) : nil
    }

    func breach(fee: UInt64) -> WalletError? {
        fee > maxFee ? .feeAboveLimit(fee: fee, limit: maxFee) : nil
    }
}

/// What one send allows beyond the rules (issue 50 item 1): a limit other than the profile's (nil:
/// the profile's, else the default), and a fee larger than the amount sent (`--yes`).
public struct FeeApproval: Sendable, Equatable {
    public var maxFeerate: Double?
    public var maxFee: UInt64?
    public var feeAboveAmount: Bool

    public init(maxFeerate: Double? = nil, maxFee: UInt64? = nil, feeAboveAmount: Bool = false) {
        self.maxFeerate = maxFeerate
        self.maxFee = maxFee
        self.feeAboveAmount = feeAboveAmount
    }

    /// `profile`'s limits (else the defaults) with this send's in their place.
    func limits(over profile: WalletFeeLimits?) -> WalletFeeLimits {
        var limits = profile ?? WalletFeeLimits()
        if let maxFeerate { limits.maxFeerate = maxFeerate }
        if let maxFee { limits.maxFee = maxFee }
        return limits
    }
}
