/// KAS amounts as people type them (issue 24 item 4): digits, at most 8 decimals, in sompi
/// (1 KAS = 100,000,000 sompi).
public enum KaspaAmount {
    public static let sompiPerKAS: UInt64 = 100_000_000
    /// Every sompi there will ever be: rusty-kaspa's `MAX_SOMPI`, 29 billion KAS. No honest
    /// amount, UTXO or balance is above it (issue 50 item 1).
    public static let maximumSompi: UInt64 = 29_000_000_000 * sompiPerKAS

    /// Sompi for `text` ("1", "0.2", "12.34567891"), or nil for anything else: signs, exponents,
    /// more than 8 decimals, no digits, or more than UInt64 holds.
    public static func sompi(fromKAS text: String) -> UInt64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count == 2 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty), fraction.count <= 8,
            (whole + fraction).allSatisfy({ $0.isASCII && $0.isNumber }), parts.count == 1 || !fraction.isEmpty
        else { return nil }
        let wholeValue = whole.isEmpty ? 0 : UInt64(whole)
        let fractionValue = UInt64(fraction.padding(toLength: 8, withPad: "0", startingAt: 0))
        guard let wholeValue, let fractionValue else { return nil }
        let (scaled, overflow) = wholeValue.multipliedReportingOverflow(by: sompiPerKAS)
        let (total, overflowSum) = scaled.addingReportingOverflow(fractionValue)
        guard !overflow, !overflowSum else { return nil }
        return total
    }

    /// `sompi` as KAS with 8 decimals ("0.20000000").
    public static func kas(fromSompi sompi: UInt64) -> String {
        let fraction = String(sompi % sompiPerKAS)
        return "\(sompi / sompiPerKAS).\(String(repeating: "0", count: 8 - fraction.count))\(fraction)"
    }
}
