import KaspaCrypto
import TandemBasics
import TandemTesting
import Testing

@testable import KaspaTransaction

/// Property tests: the signature commits to every signed field, and the builder pays exactly the
/// minimum fee of what it signs, never more than its inputs, and refuses what is over the mass.
@Suite("Kaspa transaction properties (issue 15)")
struct KaspaTxPropertyTests {
    static let key = try? PrivateKey(hex: "1de32ec684f4a3d850f896ba14c68d45f9d345934cdd410d090ab38213f00a7e")

    static func utxos(_ amounts: [UInt64], key: PrivateKey, random: inout SeededRandom) -> [KaspaUtxoEntry] {
        amounts.map { amount in
            KaspaUtxoEntry(
                outpoint: KaspaOutpoint(
                    transactionID: (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) },
                    index: UInt32.random(in: 0...3, using: &random)),
                amount: amount,
                scriptPublicKey: KaspaScriptPublicKey(address: KaspaAddress(publicKey: key.xOnlyPublicKey)),
                blockDAAScore: 1000)
        }
    }

    @Test("changing any signed field changes the sighash and breaks the signature")
    func signatureCommitsToEveryField() throws {
        let key = try #require(Self.key)
        var random = SeededRandom(seed: 15)
        let recipient = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey)
        let builder = KaspaTransactionBuilder(key: key)
        let signed = try builder.build(
            .payment(to: recipient, amount: 50_000_000, memo: Array("pay:memo".utf8)),
            utxos: Self.utxos([40_000_000, 30_000_000], key: key, random: &random))
        try signed.verifySignatures()
        let original = try KaspaSigHasher(signed).schnorrHash(input: 0)
        let mutations: [(String, (inout KaspaTransaction) -> Void)] = [
            ("amount", { $0.outputs[0].value += 1 }),
            ("output script", { $0.outputs[0].scriptPublicKey.script[5] ^= 1 }),
            ("payload byte", { $0.payload[0] ^= 1 }),
            ("outpoint id", { $0.inputs[0].previousOutpoint.transactionID[0] ^= 1 }),
            ("outpoint index", { $0.inputs[1].previousOutpoint.index += 1 }),
            ("sequence", { $0.inputs[1].sequence += 1 }),
            ("spent amount", { $0.inputs[0].utxo?.amount += 1 }),
            ("lock time", { $0.lockTime += 1 }),
        ]
        for (name, mutate) in mutations {
            var changed = signed
            mutate(&changed)
            #expect(try KaspaSigHasher(changed).schnorrHash(input: 0) != original, "\(name)")
            #expect(throws: KaspaTransactionError.self, "\(name)") { try changed.verifySignatures() }
        }
    }

    @Test("all six sighash types differ and each signature verifies under its own type")
    func sixTypes() throws {
        let key = try #require(Self.key)
        var random = SeededRandom(seed: 6)
        let builder = KaspaTransactionBuilder(key: key)
        let unsigned = try builder.select(
            .selfSpend(payload: [1, 2, 3]), utxos: Self.utxos([10_000_000, 20_000_000], key: key, random: &random))
        let hasher = try KaspaSigHasher(unsigned)
        let digests = try KaspaSigHashType.allTypes.map { try hasher.schnorrHash(input: 0, type: $0) }
        #expect(Set(digests).count == 6)
        for (type, digest) in zip(KaspaSigHashType.allTypes, digests) {
            var signed = unsigned
            signed.inputs[0].signatureScript = KaspaTransaction.signatureScript(
                try key.signature(for: digest), type: type)
            signed.inputs[0].signatureScript = signed.inputs[0].signatureScript
            let check = try KaspaSigHasher(signed).schnorrHash(input: 0, type: type)
            #expect(check == digest)
            #expect(KaspaSigHashType(name: type.description) == type)
        }
    }

    @Test("the builder pays exactly the minimum fee of its signed transaction on random UTXO sets")
    func builderPaysMinimumFee() throws {
        let key = try #require(Self.key)
        let builder = KaspaTransactionBuilder(key: key)
        let recipient = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey)
        var random = SeededRandom(seed: 2026)
        var built = 0
        for _ in 0..<200 {
            let count = Int.random(in: 1...12, using: &random)
            let amounts = (0..<count).map { _ in UInt64.random(in: 1_000...500_000_000, using: &random) }
            let utxos = Self.utxos(amounts, key: key, random: &random)
            let payload = (0..<Int.random(in: 0...400, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            let request: KaspaTransactionBuilder.Request =
                Bool.random(using: &random)
                ? .selfSpend(payload: payload)
                : .payment(
                    to: recipient, amount: UInt64.random(in: 1_000_000...300_000_000, using: &random), memo: payload)
            let signed: KaspaTransaction
            do { signed = try builder.build(request, utxos: utxos) } catch {
                switch error {
                case .insufficientFunds, .storageMassTooHigh, .computeMassTooHigh: continue
                default:
                    Issue.record("unexpected \(error)")
                    continue
                }
            }
            built += 1
            try signed.verifySignatures()
            let spent = try signed.utxoEntries().reduce(UInt64(0)) { $0 + $1.amount }
            let paid = signed.outputs.reduce(UInt64(0)) { $0 + $1.value }
            #expect(paid <= spent)
            let mass = KaspaMass(of: signed)
            let minimum = try #require(mass.fee)
            let hasChange = signed.outputs.last?.scriptPublicKey == KaspaScriptPublicKey(address: builder.address)
            if hasChange {
                #expect(spent - paid == minimum)
            } else {
                // At most what a change output would have cost, plus the dust it would have held.
                var withChange = signed
                withChange.outputs.append(
                    KaspaTransactionOutput(
                        value: spent, scriptPublicKey: KaspaScriptPublicKey(address: builder.address)))
                let changeCost = KaspaMass.minimumFee(
                    forMass: max(KaspaMass(of: withChange).computeMass, mass.storageMass ?? 0))
                #expect(spent - paid >= minimum && spent - paid <= changeCost + KaspaTransactionBuilder.dustThreshold)
            }
            #expect(try #require(mass.mass) <= KaspaMass.maximumStandardMass)
            if let recipientOutput = signed.outputs.first, request.recipient != nil {
                #expect(recipientOutput.value == request.amount)
            }
        }
        #expect(built > 50)
    }

    @Test("what is left after the recipient and a change output's cost, at most the dust, goes to the fee")
    func leftoverGoesToTheFee() throws {
        let key = try #require(Self.key)
        let builder = KaspaTransactionBuilder(key: key)
        let recipient = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey)
        var random = SeededRandom(seed: 10_000)
        let utxo = Self.utxos([300_000_000], key: key, random: &random)
        // Near the UTXO's value the recipient's storage mass is tiny: compute mass, which does
        // not depend on values, sets both fees.
        let probe = try builder.assemble(.payment(to: recipient, amount: 100_000_000), inputs: utxo)
        var noChange = probe
        noChange.outputs.removeLast()
        let minimum = KaspaMass.minimumFee(forMass: KaspaMass(submitting: noChange).computeMass)
        let changeCost = KaspaMass.minimumFee(forMass: KaspaMass(submitting: probe).computeMass)
        for leftover in [UInt64(0), 5_000, changeCost - minimum, changeCost - minimum + 10_000] {
            let amount = 300_000_000 - minimum - leftover
            let built = try builder.build(.payment(to: recipient, amount: amount), utxos: utxo)
            #expect(built.outputs.count == 1, "leftover \(leftover)")
            #expect(built.outputs[0].value == amount)
            try built.verifySignatures()
        }
        // A little more and the change output stays, but it is too small for the storage mass.
        let amount = 300_000_000 - changeCost - 10_001
        #expect {
            try builder.build(.payment(to: recipient, amount: amount), utxos: utxo)
        } throws: { error in
            if case .storageMassTooHigh? = error as? KaspaBuildError { true } else { false }
        }
    }

    @Test("the builder refuses over the compute mass and prefers one sufficient UTXO")
    func builderLimits() throws {
        let key = try #require(Self.key)
        let builder = KaspaTransactionBuilder(key: key)
        var random = SeededRandom(seed: 7)
        let many = Self.utxos(Array(repeating: 1_000_000, count: 200), key: key, random: &random)
        #expect {
            try builder.build(
                .selfSpend(payload: []),
                utxos: many.map {
                    var u = $0
                    u.amount = 20_000
                    return u
                })
        } throws: { error in
            switch error as? KaspaBuildError {
            case .computeMassTooHigh?, .insufficientFunds?, .storageMassTooHigh?: true
            default: false
            }
        }
        let big = [UInt8](repeating: 7, count: 60_000)
        #expect(
            throws: KaspaBuildError.computeMassTooHigh(
                mass: KaspaMass(
                    submitting: KaspaTransaction(
                        inputs: [KaspaTransactionInput(spending: many[0])],
                        outputs: [
                            KaspaTransactionOutput(
                                value: 1, scriptPublicKey: KaspaScriptPublicKey(address: builder.address))
                        ],
                        payload: big)
                ).computeMass, limit: 100_000)
        ) {
            try builder.assemble(.selfSpend(payload: big), inputs: [many[0]])
        }
        let mixed = Self.utxos([5_000_000, 900_000_000, 300_000_000, 70_000_000], key: key, random: &random)
        let handshake = try builder.build(
            .handshake(to: KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey), payload: [1]), utxos: mixed)
        #expect(handshake.inputs.count == 1)
        #expect(handshake.outputs.first?.value == KaspaTransactionBuilder.handshakeAmount)
    }
}
