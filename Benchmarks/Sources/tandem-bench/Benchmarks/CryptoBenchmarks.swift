import BenchSupport
import KasiaProtocol
import KaspaCrypto

#if canImport(Darwin)
    import libsecp256k1
#else
    import CSecp256k1
#endif

/// Issue 2's figures: alias pair, seal and open of a 100-byte message, each against one raw
/// libsecp256k1 ECDH measured in the same run.
public enum CryptoBenchmarks {
    public static func run(samples: Int = 11, iterations: Int = 400) throws -> BenchReport {
        let me = PrivateKey.generate()
        let peer = PrivateKey.generate()
        let peerAddress = KaspaAddress(publicKey: peer.xOnlyPublicKey)
        let meAddress = KaspaAddress(publicKey: me.xOnlyPublicKey)
        let message = String(repeating: "m", count: 100)
        let sealed = try KasiaCipher.seal(message, to: meAddress)

        // Baseline: the library call alone, on a point parsed beforehand, x copied out unhashed.
        let context = try rawContext()
        defer { secp256k1_context_destroy(context) }
        var point = secp256k1_pubkey()
        guard secp256k1_ec_pubkey_parse(context, &point, peer.publicKey.compressedRepresentation, 33) == 1 else {
            throw BenchError.setup("peer key did not parse")
        }
        let scalar = me.rawRepresentation
        var output = [UInt8](repeating: 0, count: 32)
        let peerKey = try peerAddress.xOnlyPublicKey()
        let results = try measureInterleaved(
            [
                BenchCase("raw ECDH (libsecp256k1)", iterations: iterations) {
                    _ = secp256k1_ecdh(
                        context, &output, &point, scalar,
                        { out, x, _, _ in
                            guard let out, let x else { return 0 }
                            out.update(from: x, count: 32)
                            return 1
                        }, nil)
                    blackHole(output)
                },
                BenchCase("alias pair (parsed peer key)", iterations: iterations) {
                    blackHole(try AliasPair(privateKey: me, peer: peerKey))
                },
                BenchCase("alias pair from address (+ key parse)", iterations: iterations) {
                    blackHole(try AliasPair(privateKey: me, peer: peerAddress))
                },
                BenchCase("seal 100 B to an address", iterations: iterations) {
                    blackHole(try KasiaCipher.seal(message, to: meAddress))
                },
                BenchCase("open 100 B", iterations: iterations) {
                    blackHole(try KasiaCipher.open(sealed, using: me))
                },
            ], samples: samples)
        return BenchReport(title: "Kaspa / Kasia crypto core", baseline: results[0], others: Array(results.dropFirst()))
    }

    private static func rawContext() throws -> OpaquePointer {
        guard let context = secp256k1_context_create(UInt32(SECP256K1_CONTEXT_NONE)) else {
            throw BenchError.setup("no secp256k1 context")
        }
        return context
    }
}

/// A benchmark could not set up its inputs.
public enum BenchError: Error, CustomStringConvertible {
    case setup(String)

    public var description: String {
        switch self {
        case .setup(let what): "benchmark setup failed: \(what)"
        }
    }
}
