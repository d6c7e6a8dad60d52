import Crypto
import Foundation
import TandemBasics
import _CryptoExtras

/// BetterAuth's password hashing (betterauth-api.md §7): scrypt N=16384, r=16, p=1, 64-byte
/// key over the NFKC-normalised UTF-8 password, stored as `"<salthex>:<keyhex>"`, where the
/// *hex string's* bytes are the salt. Keeping the format lets a BetterAuth table be imported.
///
/// The cost N is a parameter (issue 45 item 2) only so that tests that sign up hundreds of
/// accounts can run cheaply: the stored format does not record it, so a hash verifies only at the
/// cost it was made with, and every server keeps BetterAuth's.
public struct PasswordHasher: Sendable {
    /// BetterAuth's N.
    public static let betterAuthRounds = 16_384
    static let blockSize = 16
    static let parallelism = 1
    static let keyLength = 64

    /// scrypt's N: a power of two above 1.
    public let rounds: Int

    /// BetterAuth's parameters; `rounds` other than ``betterAuthRounds`` is for tests only.
    public init(rounds: Int = betterAuthRounds) {
        precondition(rounds > 1 && rounds & (rounds - 1) == 0, "scrypt's N is a power of two above 1")
        self.rounds = rounds
    }

    /// Hashes `password` with a fresh 16-byte salt from the system CSPRNG.
    public func hash(_ password: String) throws -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return try hash(password, saltHex: Hex.encode(salt))
    }

    /// Hashes with a given salt string (the 32 hex characters BetterAuth writes).
    public func hash(_ password: String, saltHex: String) throws -> String {
        saltHex + ":" + Hex.encode(try derive(password, saltHex: saltHex))
    }

    /// Whether `password` matches `stored`. A malformed stored hash never matches (BetterAuth
    /// answers 500 there; we answer like a wrong password). Comparison is constant-time.
    public func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let expected = try? Hex.decode(parts[1]), !expected.isEmpty,
            let derived = try? derive(password, saltHex: String(parts[0]), length: expected.count)
        else { return false }
        return ConstantTime.equal(derived, expected)
    }

    /// Burns the same work as a verification, for unknown users (§3: equal timing).
    public func dummyVerify(_ password: String) {
        _ = try? derive(password, saltHex: "00000000000000000000000000000000")
    }

    /// Whether `stored` has BetterAuth's shape: 32 hex, `:`, 128 hex.
    public static func isWellFormed(_ stored: String) -> Bool {
        let parts = stored.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].count == keyLength * 2 else { return false }
        return Hex.isHex(parts[1])
    }

    private func derive(_ password: String, saltHex: String, length: Int = keyLength) throws -> [UInt8] {
        let normalized = password.precomposedStringWithCompatibilityMapping
        let key = try KDF.Scrypt.deriveKey(
            from: Array(normalized.utf8), salt: Array(saltHex.utf8), outputByteCount: length,
            rounds: rounds, blockSize: Self.blockSize, parallelism: Self.parallelism)
        return key.withUnsafeBytes { Array($0) }
    }
}
