public import KaspaCrypto

/// Builds and signs the Kaspa transactions Kasia sends (kasia-protocol §12): a handshake
/// (0.2 KAS to the recipient, change back), a contextual message or self-stash (one output back
/// to ourselves), a payment (amount, change, optional `pay:` memo payload) and a compaction
/// (up to 8 inputs into one, no payload).
///
/// The fee is the SDK's minimum for the signed transaction, found as a fixed point because the
/// change's value enters the storage mass. Change at or below 10,000 sompi is left to the fee,
/// the change being what the inputs leave after the recipient and the least a change output can
/// cost (its bytes): so a transaction without change pays at most that output's fee plus 10,000
/// sompi above its own minimum, never less than it.
public struct KaspaTransactionBuilder: Sendable {
    public static let handshakeAmount: UInt64 = 20_000_000
    public static let dustThreshold: UInt64 = 10_000
    public static let maximumCompactionInputs = 8

    public let key: PrivateKey
    public let network: KaspaNetwork
    /// Our Schnorr address: where change and self-spends go.
    public let address: KaspaAddress
    private let script: KaspaScriptPublicKey
    /// The wallet's other keys (an HD wallet's receive, change and spending addresses, issue 44
    /// item 2): their UTXOs may be spent too, each input signed with its own key.
    public let otherKeys: [PrivateKey]
    private let otherScripts: Set<KaspaScriptPublicKey>
    /// Sompi per gram of mass to pay (a node's fee estimate, issue 24 item 2); never less than the
    /// relay minimum of 100, which is what the default pays.
    public var feeRate: Double
    /// A fee the transaction pays at least: the floor a node stated when it refused one as too
    /// low (kaspa-node.md §6), 0 for none.
    public var minimumFee: UInt64

    public init(
        key: PrivateKey, network: KaspaNetwork = .mainnet, feeRate: Double = 0, minimumFee: UInt64 = 0,
        otherKeys: [PrivateKey] = []
    ) {
        self.key = key
        self.otherKeys = otherKeys
        otherScripts = Set(otherKeys.map { KaspaScriptPublicKey(address: KaspaAddress(publicKey: $0.xOnlyPublicKey)) })
        self.network = network
        self.feeRate = feeRate
        self.minimumFee = minimumFee
        address = KaspaAddress(publicKey: key.xOnlyPublicKey, network: network)
        script = KaspaScriptPublicKey(address: address)
    }

    /// The fee for `mass`: the relay minimum, the fee rate's, or ``minimumFee``, whichever is most.
    public func fee(forMass mass: UInt64) -> UInt64 {
        let relay = KaspaMass.minimumFee(forMass: mass)
        let rated = feeRate.isFinite && feeRate > 0 ? (Double(mass) * feeRate).rounded(.up) : 0
        let atRate = rated >= Double(UInt64.max) ? UInt64.max : UInt64(rated)
        return max(relay, atRate, minimumFee)
    }

    /// What to send: a recipient and amount (handshake, payment) or none (a self-spend), a payload.
    public struct Request: Sendable, Hashable {
        public var recipient: KaspaAddress?
        public var amount: UInt64
        public var payload: [UInt8]

        public init(recipient: KaspaAddress? = nil, amount: UInt64 = 0, payload: [UInt8] = []) {
            self.recipient = recipient
            self.amount = amount
            self.payload = payload
        }

        public static func handshake(to recipient: KaspaAddress, amount: UInt64 = handshakeAmount, payload: [UInt8])
            -> Request
        { Request(recipient: recipient, amount: amount, payload: payload) }

        public static func payment(to recipient: KaspaAddress, amount: UInt64, memo: [UInt8] = []) -> Request {
            Request(recipient: recipient, amount: amount, payload: memo)
        }

        /// A contextual message or a self-stash: one output back to ourselves.
        public static func selfSpend(payload: [UInt8]) -> Request { Request(payload: payload) }
    }

    /// Selects UTXOs, then builds and signs. One sufficient UTXO is preferred (the smallest that
    /// makes a transaction within the standard mass); otherwise the largest are added one by one.
    public func build(_ request: Request, utxos: [KaspaUtxoEntry]) throws(KaspaBuildError) -> KaspaTransaction {
        try sign(try select(request, utxos: utxos))
    }

    /// Merges up to 8 of the smallest UTXOs into one output back to ourselves, with no payload.
    public func compaction(utxos: [KaspaUtxoEntry]) throws(KaspaBuildError) -> KaspaTransaction {
        try checkOwnership(utxos)
        let chosen = utxos.sorted { $0.amount < $1.amount }.prefix(Self.maximumCompactionInputs)
        return try sign(try assemble(.selfSpend(payload: []), inputs: Array(chosen)))
    }

    /// Signs every input with the wallet key its UTXO is locked to.
    public func sign(_ transaction: KaspaTransaction) throws(KaspaBuildError) -> KaspaTransaction {
        do { return try transaction.signed(withKeys: [key] + otherKeys) } catch { throw .signing(error) }
    }

    /// The unsigned transaction spending exactly `inputs`, in order: the recipient's output first,
    /// then change; the fee that of the signed transaction.
    public func assemble(_ request: Request, inputs: [KaspaUtxoEntry]) throws(KaspaBuildError) -> KaspaTransaction {
        guard !inputs.isEmpty else { throw .noUTXOs }
        if request.recipient != nil, request.amount == 0 { throw .zeroAmount }
        var total: UInt64 = 0
        for entry in inputs {
            let (sum, overflow) = total.addingReportingOverflow(entry.amount)
            guard !overflow else { throw .insufficientFunds(available: .max, needed: 0) }
            total = sum
        }
        let required = request.recipient == nil ? 0 : request.amount
        var base: [KaspaTransactionOutput] = []
        if let recipient = request.recipient {
            base.append(KaspaTransactionOutput(value: request.amount, scriptPublicKey: .init(address: recipient)))
        }
        // Input n has sequence n, as the SDK's transaction generator numbers them (the vectors'
        // multi-input transactions); a one-input transaction keeps KaChat's sequence 0 (spec §12).
        let spending = inputs.enumerated().map { index, entry in
            KaspaTransactionInput(previousOutpoint: entry.outpoint, sequence: UInt64(index), utxo: entry)
        }
        func transaction(_ outputs: [KaspaTransactionOutput]) -> KaspaTransaction {
            KaspaTransaction(inputs: spending, outputs: outputs, payload: request.payload)
        }
        let surplus = total - min(total, required)
        // The least a change output can cost: its bytes (compute mass is independent of values)
        // and the storage mass of the outputs without it. What that leaves, at or below the dust
        // threshold, goes to the fee.
        let shape = transaction(base + [KaspaTransactionOutput(value: max(surplus, 1), scriptPublicKey: script)])
        let shapeMass = KaspaMass(submitting: shape).computeMass
        if shapeMass > KaspaMass.maximumStandardMass {
            throw .computeMassTooHigh(mass: shapeMass, limit: KaspaMass.maximumStandardMass)
        }
        let floor = fee(forMass: max(shapeMass, KaspaMass(submitting: transaction(base)).storageMass ?? 0))
        guard total > required, surplus > floor, surplus - floor > Self.dustThreshold else {
            return try withoutChange(transaction(base), total: total, required: required, floor: floor)
        }
        // Fixed point from that floor: the fee of the transaction whose change is what that fee
        // leaves. The fee only rises, so the change only falls and its storage mass only grows:
        // a candidate over the limit means the answer is too.
        var fee = floor
        for _ in 0..<64 {
            let change = surplus - fee
            let candidate = transaction(base + [KaspaTransactionOutput(value: change, scriptPublicKey: script)])
            let mass = KaspaMass(submitting: candidate)
            try Self.checkLimits(mass)
            let needed = self.fee(forMass: mass.mass ?? 0)
            if needed == fee { return candidate }
            guard surplus > needed, surplus - needed > Self.dustThreshold else {
                // Storage mass pushed the change into the dust: that change output is over the limit.
                let dust = transaction(
                    base + [
                        KaspaTransactionOutput(value: surplus > needed ? surplus - needed : 1, scriptPublicKey: script)
                    ])
                try Self.checkLimits(KaspaMass(submitting: dust))
                throw .fixedPointNotReached
            }
            fee = needed
        }
        throw .fixedPointNotReached
    }

    /// The transaction without a change output: what the recipient leaves all goes to the fee,
    /// which is at least that transaction's minimum. A self-spend needs its one output.
    private func withoutChange(
        _ candidate: KaspaTransaction, total: UInt64, required: UInt64, floor: UInt64
    ) throws(KaspaBuildError) -> KaspaTransaction {
        guard !candidate.outputs.isEmpty else {
            throw .insufficientFunds(available: total, needed: floor + Self.dustThreshold + 1)
        }
        let mass = KaspaMass(submitting: candidate)
        try Self.checkLimits(mass)
        let needed = fee(forMass: mass.mass ?? 0)
        guard total >= required, total - required >= needed else {
            throw .insufficientFunds(available: total, needed: required.addingReportingOverflow(needed).partialValue)
        }
        return candidate
    }

    private static func checkLimits(_ mass: KaspaMass) throws(KaspaBuildError) {
        guard let storage = mass.storageMass else { throw .storageMassIncomputable }
        if mass.computeMass > KaspaMass.maximumStandardMass {
            throw .computeMassTooHigh(mass: mass.computeMass, limit: KaspaMass.maximumStandardMass)
        }
        if storage > KaspaMass.maximumStandardMass {
            throw .storageMassTooHigh(mass: storage, limit: KaspaMass.maximumStandardMass)
        }
    }

    private func checkOwnership(_ utxos: [KaspaUtxoEntry]) throws(KaspaBuildError) {
        guard !utxos.isEmpty else { throw .noUTXOs }
        if let index = utxos.firstIndex(where: {
            $0.scriptPublicKey != script && !otherScripts.contains($0.scriptPublicKey)
        }) {
            throw .notOurUTXO(index: index)
        }
    }

    /// The unsigned transaction for `request` from a selection of `utxos`.
    public func select(_ request: Request, utxos: [KaspaUtxoEntry]) throws(KaspaBuildError) -> KaspaTransaction {
        try checkOwnership(utxos)
        if request.recipient != nil, request.amount == 0 { throw .zeroAmount }
        let required = request.recipient == nil ? 0 : request.amount
        // Positions by amount, not entries: moving an entry in a sort retains and releases each of
        // its arrays, which made the sort most of a build from 10,000 UTXOs (issue 24 "Figures").
        let ascending = utxos.indices.sorted { utxos[$0].amount < utxos[$1].amount }
        var lastError: KaspaBuildError?
        // One sufficient UTXO: no contention between messages sent close together (§12).
        for index in ascending where utxos[index].amount > required {
            do { return try assemble(request, inputs: [utxos[index]]) } catch {
                if case .computeMassTooHigh = error { throw error }
                lastError = error
            }
        }
        // Otherwise the largest first, until the transaction pays for itself within the mass limit.
        var chosen: [KaspaUtxoEntry] = []
        var total: UInt64 = 0
        for index in ascending.reversed() {
            let entry = utxos[index]
            chosen.append(entry)
            total = total.addingReportingOverflow(entry.amount).partialValue
            guard chosen.count > 1, total > required else { continue }
            do { return try assemble(request, inputs: chosen) } catch {
                if case .computeMassTooHigh = error { throw error }
                lastError = error
            }
        }
        throw lastError ?? .insufficientFunds(available: total, needed: required)
    }
}
