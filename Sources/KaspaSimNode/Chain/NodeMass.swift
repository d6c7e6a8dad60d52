public import KaspaRPC

/// The masses a rusty-kaspa v2 node computes for a submitted version-0 transaction
/// (kaspa-node.md §7). Not `KaspaMass`: that is the wallet SDK's figure, which counts payload
/// bytes twice and adds a signature's bytes per input, so it is larger than the node's.
public struct NodeMass: Sendable, Hashable {
    /// The estimated serialised size in bytes.
    public let size: UInt64
    /// `size + Σ outputs (2 + script) × 10 + Σ sigops × 1000`.
    public let computeMass: UInt64

    public init(of transaction: RPCTransaction) {
        var size: UInt64 = 2 + 8
        for input in transaction.inputs {
            size += 32 + 4 + 8 + UInt64(input.signatureScript.count) + 8
        }
        size += 8
        var scriptMass: UInt64 = 0
        for output in transaction.outputs {
            let script = UInt64(output.scriptPublicKey.value.script.count)
            size += 8 + 2 + 8 + script
            scriptMass += (2 + script) * 10
        }
        size += 8 + 20 + 8 + 32 + 8 + UInt64(transaction.payload?.count ?? 0)
        let sigOps = transaction.inputs.reduce(UInt64(0)) { $0 + UInt64($1.sigOpCount ?? 0) }
        self.size = size
        computeMass = size + scriptMass + sigOps * 1000
    }

    /// `4 × size`, limited to 100,000 per standard transaction.
    public var transientMass: UInt64 { size * 4 }

    /// `⌈transient × 500,000 ÷ 1,000,000⌉ = 2 × size`: what the fee floor charges for bytes.
    public var normalizedTransientMass: UInt64 { size * 2 }

    /// The relay floor for a mass: 100 sompi per gram (100,000 per kilogram), at least 100,000
    /// when that rounds to zero.
    public static func minimumFee(forMass mass: UInt64) -> UInt64 {
        let fee = mass.multipliedReportingOverflow(by: 100_000)
        guard !fee.overflow else { return .max }
        return fee.partialValue / 1000 == 0 ? 100_000 : fee.partialValue / 1000
    }

    /// `max(compute, 2 × size) × 100`: the least fee the node accepts.
    public var minimumFee: UInt64 { Self.minimumFee(forMass: max(computeMass, normalizedTransientMass)) }
}
