/// Why a transaction cannot be hashed, signed or verified as asked.
public enum KaspaTransactionError: Error, Equatable, Sendable, CustomStringConvertible {
    case inputIndex(Int, count: Int)
    case missingUTXO(input: Int)
    case sighashType(UInt8)
    /// The input's UTXO is not locked to the signing key's Schnorr or ECDSA script.
    case notOurInput(input: Int)
    /// Only standard Schnorr and ECDSA pay-to-public-key inputs can be verified here.
    case unsupportedScript(input: Int)
    /// A pay-to-script-hash input: its redeem script needs a script engine to verify.
    case scriptHashUnsupported(input: Int)
    case malformedSignatureScript(input: Int)
    case badSignature(input: Int)
    case signingFailed(String)

    public var description: String {
        switch self {
        case .inputIndex(let index, let count): "input \(index) does not exist (the transaction has \(count))"
        case .missingUTXO(let input): "input \(input) has no UTXO entry (amount and script are needed)"
        case .sighashType(let type): "sighash type \(type) is not one of the six Kaspa types"
        case .notOurInput(let input): "input \(input) is not locked to this key's Schnorr or ECDSA address"
        case .unsupportedScript(let input):
            "input \(input) spends a script other than a Schnorr or ECDSA pay-to-public-key, which cannot be verified here"
        case .scriptHashUnsupported(let input):
            "input \(input) spends a pay-to-script-hash UTXO: its redeem script needs a script engine, which this relay does not run"
        case .malformedSignatureScript(let input): "input \(input): the signature script is not 0x41 ‖ sig64 ‖ type"
        case .badSignature(let input): "input \(input): the signature does not verify"
        case .signingFailed(let reason): "signing failed: \(reason)"
        }
    }
}
