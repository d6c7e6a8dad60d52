extension KaspaMass {
    /// KIP-9 storage mass, `C·(|O|/H(O) − |I|/A(I))` floored at 0 (rusty-kaspa `calc_storage_mass`).
    ///
    /// A UTXO whose stored size passes 100 bytes counts `p = ⌈size/100⌉` times with `p²/amount`;
    /// every standard script has `p = 1`. With one output, one input, or two of each, the inputs
    /// also use the harmonic form ("relaxed formula"); otherwise their arithmetic mean.
    static func storageMass(of transaction: KaspaTransaction) -> UInt64? {
        guard let entries = try? transaction.utxoEntries(), !entries.isEmpty else { return nil }
        let inputs = entries.map {
            (plurality: plurality($0.scriptPublicKey, covenant: $0.covenantID != nil), amount: $0.amount)
        }
        let outputs = transaction.outputs.map {
            (plurality: plurality($0.scriptPublicKey, covenant: false), amount: $0.value)
        }
        return storageMass(inputs: inputs, outputs: outputs)
    }

    /// The formula over (plurality, amount) cells; `nil` on a zero amount or an overflow.
    static func storageMass(
        inputs: [(plurality: UInt64, amount: UInt64)], outputs: [(plurality: UInt64, amount: UInt64)]
    )
        -> UInt64?
    {
        let c = storageMassParameter
        var outputPlurality: UInt64 = 0
        var harmonicOutputs: UInt64 = 0
        for cell in outputs {
            guard cell.amount > 0 else { return nil }
            let (squared, o1) = c.multipliedReportingOverflow(by: cell.plurality)
            let (weighted, o2) = squared.multipliedReportingOverflow(by: cell.plurality)
            guard !o1, !o2 else { return nil }
            let (sum, o3) = harmonicOutputs.addingReportingOverflow(weighted / cell.amount)
            guard !o3 else { return nil }
            harmonicOutputs = sum
            outputPlurality += cell.plurality
        }
        let inputPlurality = inputs.reduce(UInt64(0)) { $0 + $1.plurality }
        let relaxed =
            outputPlurality == 1
            || (inputs.count <= 2 && (inputPlurality == 1 || (outputPlurality == 2 && inputPlurality == 2)))
        if relaxed {
            var harmonicInputs: UInt64 = 0
            for cell in inputs {
                guard cell.amount > 0 else { return nil }
                let (squared, o1) = c.multipliedReportingOverflow(by: cell.plurality)
                let (weighted, o2) = squared.multipliedReportingOverflow(by: cell.plurality)
                guard !o1, !o2 else { return nil }
                let (sum, overflow) = harmonicInputs.addingReportingOverflow(weighted / cell.amount)
                harmonicInputs = overflow ? .max : sum
            }
            return harmonicOutputs > harmonicInputs ? harmonicOutputs - harmonicInputs : 0
        }
        var total: UInt64 = 0
        for cell in inputs {
            let (sum, overflow) = total.addingReportingOverflow(cell.amount)
            guard !overflow else { return nil }
            total = sum
        }
        let mean = total / max(inputPlurality, 1)
        guard mean > 0 else { return nil }
        let (arithmetic, overflow) = inputPlurality.multipliedReportingOverflow(by: c / mean)
        let arithmeticInputs = overflow ? UInt64.max : arithmetic
        return harmonicOutputs > arithmeticInputs ? harmonicOutputs - arithmeticInputs : 0
    }

    /// How many 100-byte storage units a UTXO with this script takes (63 fixed bytes + script).
    static func plurality(_ script: KaspaScriptPublicKey, covenant: Bool) -> UInt64 {
        let size = 63 + script.script.count + (covenant ? 32 : 0)
        return UInt64((size + 99) / 100)
    }
}
