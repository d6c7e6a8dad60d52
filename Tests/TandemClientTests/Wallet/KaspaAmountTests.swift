import KaspaRPC
import TandemBasics
import TandemWallet
import Testing

@Suite("KAS amounts and fee priorities (issue 24 items 2 and 4)")
struct KaspaAmountTests {
    @Test(
        "KAS with at most 8 decimals becomes sompi; anything else is refused",
        arguments: [
            ("1", UInt64?(100_000_000)), ("0.2", 20_000_000), ("12.34567891", 1_234_567_891), (".5", 50_000_000),
            ("0.00000001", 1), ("184467440737.09551615", 18_446_744_073_709_551_615),
            ("184467440737.09551616", nil), ("1.123456789", nil), ("-1", nil), ("1e3", nil), ("", nil), (".", nil),
            ("1.", nil), ("1,5", nil), (" 1", nil), ("+1", nil), ("١", nil),
        ])
    func parses(text: String, sompi: UInt64?) {
        #expect(KaspaAmount.sompi(fromKAS: text) == sompi)
    }

    @Test("sompi print as KAS with 8 decimals")
    func formats() {
        #expect(KaspaAmount.kas(fromSompi: 20_000_000) == "0.20000000")
        #expect(KaspaAmount.kas(fromSompi: 1_234_567_891) == "12.34567891")
    }

    @Test("priorities read the estimate's buckets: high the priority one, normal and low their first")
    func priorities() {
        let estimate = RPCFeeEstimate(
            priorityBucket: .init(feerate: 150, estimatedSeconds: 1),
            normalBuckets: [.init(feerate: 120, estimatedSeconds: 10), .init(feerate: 110, estimatedSeconds: 30)],
            lowBuckets: [.init(feerate: 100, estimatedSeconds: 60)])
        #expect(FeePriority.high.feeRate(in: estimate) == 150)
        #expect(FeePriority.normal.feeRate(in: estimate) == 120)
        #expect(FeePriority.low.feeRate(in: estimate) == 100)
    }
}
