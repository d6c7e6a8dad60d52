import BenchSupport
import Crypto
import KasiaProtocol
import KaspaCrypto
public import MicroBenchmarks

/// The parts of an alias derivation and an open, measured alone, to show where time goes.
public enum CryptoBreakdown {
    public static func run(samples: Int = 11, iterations: Int = 2000) throws -> [BenchMeasurement] {
        let me = PrivateKey.generate()
        let peer = PrivateKey.generate()
        let payload = peer.xOnlyPublicKey.rawRepresentation
        let compressed = peer.publicKey.compressedRepresentation
        let ikm = SymmetricKey(data: payload)
        let info = Array("chat".utf8) + payload + payload
        let key = SymmetricKey(size: .bits256)
        let nonce = ChaChaPoly.Nonce()
        let box = try ChaChaPoly.seal([UInt8](repeating: 1, count: 100), using: key, nonce: nonce)
        return [
            try measure("x-only key parse (sqrt)", samples: samples, iterations: iterations) {
                blackHole(try XOnlyPublicKey(rawRepresentation: payload))
            },
            try measure("compressed key parse (sqrt)", samples: samples, iterations: iterations) {
                blackHole(try PublicKey(compressedRepresentation: compressed))
            },
            measure("HKDF-SHA256 → 6 B", samples: samples, iterations: iterations) {
                blackHole(HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, info: info, outputByteCount: 6))
            },
            measure("HKDF extract only", samples: samples, iterations: iterations) {
                blackHole(HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: [UInt8]()))
            },
            measure("HMAC-SHA256 of 68 B", samples: samples, iterations: iterations) {
                blackHole(HMAC<SHA256>.authenticationCode(for: info, using: key))
            },
            measure("SHA-256 of 68 B", samples: samples, iterations: iterations) {
                blackHole(SHA256.hash(data: info))
            },
            try measure("ChaCha20-Poly1305 open 100 B", samples: samples, iterations: iterations) {
                blackHole(try ChaChaPoly.open(box, using: key))
            },
            try measure("ECDH via PrivateKey", samples: samples, iterations: iterations / 10) {
                blackHole(try me.sharedSecretFromKeyAgreement(with: peer.publicKey))
            },
        ]
    }
}
