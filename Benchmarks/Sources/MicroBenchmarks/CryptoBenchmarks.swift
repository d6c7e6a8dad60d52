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
        try suite(iterations: iterations).report(samples: samples)
    }

    public static func suite(iterations: Int = 400) throws -> BenchSuite {
        let me = PrivateKey.generate()
        let peer = PrivateKey.generate()
        let peerAddress = KaspaAddress(publicKey: peer.xOnlyPublicKey)
        let meAddress = KaspaAddress(publicKey: me.xOnlyPublicKey)
        let message = String(repeating: "m", count: 100)
        let sealed = try KasiaCipher.seal(message, to: meAddress)

        // Baseline: the library call alone, on a point parsed beforehand, x copied out unhashed.
        let raw = try RawSecp256k1Context()
        let context = raw.pointer
        var point = secp256k1_pubkey()
        guard secp256k1_ec_pubkey_parse(context, &point, peer.publicKey.compressedRepresentation, 33) == 1 else {
            throw BenchError.setup("peer key did not parse")
        }
        let scalar = me.rawRepresentation
        var output = [UInt8](repeating: 0, count: 32)
        let peerKey = try peerAddress.xOnlyPublicKey()
        return BenchSuite(
            title: "Kaspa / Kasia crypto core",
            baseline: BenchCase("raw ECDH (libsecp256k1)", iterations: iterations) {
                _ = secp256k1_ecdh(
                    context, &output, &point, scalar,
                    { out, x, _, _ in
                        guard let out, let x else { return 0 }
                        out.update(from: x, count: 32)
                        return 1
                    }, nil)
                blackHole(output)
                withExtendedLifetime(raw) {}
            },
            others: [
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
            ])
    }
}

/// A libsecp256k1 context for the raw baselines, destroyed with the suite that holds it.
final class RawSecp256k1Context {
    let pointer: OpaquePointer

    init() throws {
        guard let context = secp256k1_context_create(UInt32(SECP256K1_CONTEXT_NONE)) else {
            throw BenchError.setup("no secp256k1 context")
        }
        pointer = context
    }

    deinit { secp256k1_context_destroy(pointer) }
}

public enum BenchError: Error, CustomStringConvertible {
    case setup(String)

    public var description: String {
        switch self {
        case .setup(let what): "benchmark setup failed: \(what)"
        }
    }
}
