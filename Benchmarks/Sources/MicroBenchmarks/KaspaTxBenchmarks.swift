import KaspaCrypto
import KaspaTransaction
import TandemTesting

#if canImport(Darwin)
    import libsecp256k1
#else
    import CSecp256k1
#endif

/// Issue 15's figures: sighash + BIP-340 sign per input against one raw libsecp256k1 sign in the
/// same run (goal ≤ 1.3×), and a handshake built (selection, fee, signing) from 1,000 UTXOs.
public enum KaspaTxBenchmarks {
    public static func run(samples: Int = 11, iterations: Int = 200) throws -> BenchReport {
        try suite(iterations: iterations).report(samples: samples)
    }

    public static func suite(iterations: Int = 200) throws -> BenchSuite {
        let key = PrivateKey.generate()
        let builder = KaspaTransactionBuilder(key: key)
        let recipient = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey)
        // A fixed draw: how many candidates the build tries before one leaves enough change
        // depends on the amounts, so an unseeded set made the handshake figure jump between runs.
        var random = SeededRandom(seed: 15)
        let utxos = (0..<1000).map { index in
            KaspaUtxoEntry(
                outpoint: KaspaOutpoint(
                    transactionID: (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) },
                    index: UInt32(index % 4)),
                // The first ten fund the signing cases whatever the draw (storage mass needs
                // change of about 0.1 KAS or more); the rest are random.
                amount: index < 10 ? 100_000_000 : UInt64.random(in: 1_000_000...100_000_000, using: &random),
                scriptPublicKey: KaspaScriptPublicKey(address: builder.address), blockDAAScore: 1)
        }
        let payload = [UInt8](repeating: 0x61, count: 160)
        let one = try builder.assemble(.selfSpend(payload: payload), inputs: [utxos[0]])
        let ten = try builder.assemble(.selfSpend(payload: payload), inputs: Array(utxos[0..<10]))

        // Baseline: libsecp256k1's BIP-340 sign alone, keypair made beforehand, fixed digest.
        let raw = try RawSecp256k1Context()
        let context = raw.pointer
        var keypair = secp256k1_keypair()
        guard secp256k1_keypair_create(context, &keypair, key.rawRepresentation) == 1 else {
            throw BenchError.setup("keypair")
        }
        let digest = try KaspaSigHasher(one).schnorrHash(input: 0)
        let auxiliary = [UInt8](repeating: 7, count: 32)
        var signature = [UInt8](repeating: 0, count: 64)
        let request = KaspaTransactionBuilder.Request.handshake(to: recipient, payload: payload)
        return BenchSuite(
            title: "Kaspa transactions",
            baseline: BenchCase("raw BIP-340 sign (libsecp256k1)", iterations: iterations) {
                _ = secp256k1_schnorrsig_sign32(context, &signature, digest, &keypair, auxiliary)
                blackHole(signature)
                withExtendedLifetime(raw) {}
            },
            others: [
                BenchCase("sighash + sign, 1-input tx", iterations: iterations) {
                    blackHole(try one.signed(with: key))
                },
                BenchCase(
                    "sighash + sign, per input of a 10-input tx", iterations: max(1, iterations / 10), operations: 10
                ) {
                    blackHole(try ten.signed(with: key))
                },
                BenchCase("handshake from 1,000 UTXOs (select, fee, sign)", iterations: max(1, iterations / 10)) {
                    blackHole(try builder.build(request, utxos: utxos))
                },
            ])
    }
}
