import TandemBasics

/// Mass and minimum fee exactly as the rusty-kaspa wallet SDK computes them
/// (`wallet/core/src/tx/mass.rs`, `consensus/core/src/mass/mod.rs`; kasia-protocol §12).
///
/// The SDK's figure for a transaction is `max(compute, storage)`. Its compute mass is the
/// serialised size (payload bytes at twice the rate), 10 per script-public-key byte of each output
/// and 1,000 per sigop, plus the size of one 66-byte Schnorr signature per input, added even
/// when the input is already signed. That last term is why the SDK's mass of a signed
/// transaction is higher than that of the same transaction unsigned; the builder pays the fee of
/// the signed transaction, as the SDK does.
public struct KaspaMass: Sendable, Hashable {
    public let computeMass: UInt64
    /// KIP-9 storage mass, `nil` when it is incomputable (a zero-value output or no inputs).
    public let storageMass: UInt64?

    /// Mainnet parameters (the SDK's `Params`): the same on every current network.
    public static let massPerTransactionByte: UInt64 = 1
    public static let massPerScriptPublicKeyByte: UInt64 = 10
    public static let massPerSigOp: UInt64 = 1000
    public static let payloadByteFactor: UInt64 = 2
    public static let storageMassParameter: UInt64 = 1_000_000_000_000
    /// Relayed only up to this mass (compute or storage), the builder's limit.
    public static let maximumStandardMass: UInt64 = 100_000
    /// Sompi per 1,000 grams: 100 sompi per gram.
    public static let minimumRelayFeePerKilogram: UInt64 = 100_000
    /// The script `0x41 ‖ sig64 ‖ type` that the SDK counts for each input's signature.
    public static let signatureSize: UInt64 = 66
    private static let maximumSompi = KaspaAmount.maximumSompi

    /// The mass of `transaction` as it stands, as the SDK's `calculate_transaction_mass` gives it.
    public init(of transaction: KaspaTransaction) {
        computeMass = Self.computeMass(of: transaction)
        storageMass = Self.storageMass(of: transaction)
    }

    /// The mass of `transaction` as it will be submitted: each empty signature script counted as
    /// the 66-byte Schnorr script that signing puts there.
    public init(submitting transaction: KaspaTransaction) {
        var submitted = transaction
        for index in submitted.inputs.indices where submitted.inputs[index].signatureScript.isEmpty {
            submitted.inputs[index].signatureScript = [UInt8](repeating: 0, count: Int(Self.signatureSize))
        }
        self.init(of: submitted)
    }

    /// `max(compute, storage)`; `nil` when storage mass is incomputable.
    public var mass: UInt64? { storageMass.map { max(computeMass, $0) } }

    /// The minimum relay fee, or `nil` when the transaction is over the standard mass (the SDK
    /// then gives no fee either).
    public var fee: UInt64? {
        guard let mass, mass <= Self.maximumStandardMass else { return nil }
        return Self.minimumFee(forMass: mass)
    }

    /// 100 sompi per gram, at least 100,000 sompi when that rounds to zero.
    public static func minimumFee(forMass mass: UInt64) -> UInt64 {
        let (product, overflow) = mass.multipliedReportingOverflow(by: minimumRelayFeePerKilogram)
        if overflow { return maximumSompi }
        let fee = product / 1000
        return min(fee == 0 ? minimumRelayFeePerKilogram : fee, maximumSompi)
    }

    /// Serialised size of everything but inputs, outputs and payload bytes.
    private static let blankSize: UInt64 = 2 + 8 + 8 + 8 + 20 + 8 + 32 + 8

    static func computeMass(of transaction: KaspaTransaction) -> UInt64 {
        var mass = blankSize * massPerTransactionByte
        mass += UInt64(transaction.payload.count) * max(massPerTransactionByte, payloadByteFactor)
        for output in transaction.outputs {
            let script = UInt64(output.scriptPublicKey.script.count)
            mass += massPerScriptPublicKeyByte * (2 + script) + (8 + 2 + 8 + script) * massPerTransactionByte
        }
        for input in transaction.inputs {
            mass += UInt64(decodedSigOps(input.sigOpCount)) * massPerSigOp
            mass += (32 + 4 + 8 + UInt64(input.signatureScript.count) + 8) * massPerTransactionByte
            mass += signatureSize * massPerTransactionByte
        }
        return mass
    }

    /// Sigop counts above 100 count in tens (rusty-kaspa `decode_sig_op_count`).
    static func decodedSigOps(_ encoded: UInt8) -> UInt16 {
        encoded <= 100 ? UInt16(encoded) : 100 + (UInt16(encoded) - 100) * 10
    }
}
