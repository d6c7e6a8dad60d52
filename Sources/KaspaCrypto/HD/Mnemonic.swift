import Crypto
import Foundation
import _CryptoExtras

/// A BIP-39 seed phrase with the English word list: the words a KaChat or Kasia wallet is
/// written down as, and the 64-byte seed BIP-32 derives every key from.
///
/// Any length BIP-39 defines (12, 15, 18, 21 or 24 words) parses, so the standard's vectors all
/// run; Kaspa wallets (the rusty-kaspa SDK, KaChat, Kasia) make and accept 12 or 24 only, which
/// ``kaspaWordCounts`` names for the profile to hold an import to.
public struct Mnemonic: Sendable, Equatable {
    /// The words, lowercase, in order.
    public let words: [String]
    /// The entropy the words encode (16 to 32 bytes), without the checksum bits.
    public let entropy: [UInt8]

    /// BIP-39's English list, in order.
    public static var englishWords: [String] { BIP39EnglishWords.all }

    /// The word counts a Kaspa wallet makes and reads.
    public static let kaspaWordCounts: Set<Int> = [12, 24]

    /// The phrase as BIP-39 writes it: the words joined by single spaces.
    public var phrase: String { words.joined(separator: " ") }

    /// Parses a phrase: words separated by any whitespace, in any letter case. Checks every word
    /// against the list, the count, and the checksum. Errors never repeat a word of the phrase.
    public init(phrase: some StringProtocol) throws(MnemonicError) {
        let words = String(phrase).decomposedStringWithCompatibilityMapping.lowercased()
            .split(whereSeparator: { $0.isWhitespace }).map(String.init)
        guard Self.entropyBytes(forWordCount: words.count) != nil else { throw .wordCount(words.count) }
        var bits: [Bool] = []
        bits.reserveCapacity(words.count * 11)
        for (position, word) in words.enumerated() {
            guard let index = BIP39EnglishWords.index[word] else { throw .unknownWord(position: position + 1) }
            for shift in (0..<11).reversed() { bits.append((index >> shift) & 1 == 1) }
        }
        let entropyBits = bits.count * 32 / 33
        let entropy = Self.bytes(of: bits[..<entropyBits])
        guard Self.checksumBits(of: entropy) == Array(bits[entropyBits...]) else { throw .checksum }
        self.words = words
        self.entropy = entropy
    }

    /// The phrase of `entropy`: 16, 20, 24, 28 or 32 bytes.
    public init(entropy: some Collection<UInt8>) throws(MnemonicError) {
        let entropy = Array(entropy)
        guard entropy.count % 4 == 0, (16...32).contains(entropy.count) else { throw .entropyLength(entropy.count) }
        var bits: [Bool] = []
        for byte in entropy {
            for shift in (0..<8).reversed() { bits.append((byte >> UInt8(shift)) & 1 == 1) }
        }
        bits += Self.checksumBits(of: entropy)
        var words: [String] = []
        for start in stride(from: 0, to: bits.count, by: 11) {
            let index = bits[start..<start + 11].reduce(0) { (value: Int, bit: Bool) in (value << 1) | (bit ? 1 : 0) }
            words.append(BIP39EnglishWords.all[index])
        }
        self.words = words
        self.entropy = entropy
    }

    /// A fresh phrase of 12 or 24 words from the system CSPRNG.
    public static func generate(wordCount: Int = 24) throws(MnemonicError) -> Mnemonic {
        guard kaspaWordCounts.contains(wordCount), let count = entropyBytes(forWordCount: wordCount) else {
            throw .wordCount(wordCount)
        }
        return try Mnemonic(entropy: SecureRandom.bytes(count: count))
    }

    /// BIP-39's seed: PBKDF2-HMAC-SHA512 of the NFKD phrase, salted with "mnemonic" and the NFKD
    /// passphrase, 2048 rounds, 64 bytes. Every passphrase gives a valid (different) wallet.
    public func seed(passphrase: String = "") -> [UInt8] {
        let password = Array(phrase.decomposedStringWithCompatibilityMapping.utf8)
        let salt = Array(("mnemonic" + passphrase).decomposedStringWithCompatibilityMapping.utf8)
        do {
            let key = try KDF.Insecure.PBKDF2.deriveKey(
                from: password, salt: salt, using: .sha512, outputByteCount: 64, unsafeUncheckedRounds: 2048)
            return key.withUnsafeBytes { Array($0) }
        } catch {
            // BoringSSL's PBKDF2 fails only on allocation failure, fatal everywhere else in Swift too.
            preconditionFailure("PBKDF2-HMAC-SHA512 failed: \(error)")
        }
    }

    /// Entropy bytes for a BIP-39 word count; nil for any other count.
    static func entropyBytes(forWordCount count: Int) -> Int? {
        [12: 16, 15: 20, 18: 24, 21: 28, 24: 32][count]
    }

    /// The first `entropy.count / 4` bits of SHA-256(entropy).
    private static func checksumBits(of entropy: [UInt8]) -> [Bool] {
        let digest: [UInt8] = Array(SHA256.hash(data: entropy))
        return (0..<entropy.count / 4).map { (bit: Int) -> Bool in
            let byte: UInt8 = digest[bit / 8]
            return (byte >> UInt8(7 - bit % 8)) & 1 == 1
        }
    }

    private static func bytes(of bits: ArraySlice<Bool>) -> [UInt8] {
        stride(from: bits.startIndex, to: bits.endIndex, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { (value: UInt8, bit: Bool) in (value << 1) | (bit ? 1 : 0) }
        }
    }
}

extension Mnemonic: CustomStringConvertible, CustomDebugStringConvertible {
    /// Never the words: a phrase printed by accident in a log is a wallet given away.
    public var description: String { "Mnemonic(\(words.count) words)" }
    public var debugDescription: String { description }
}

/// Why a seed phrase was refused. No case carries a word of the phrase.
public enum MnemonicError: Error, Equatable, Sendable, CustomStringConvertible {
    /// BIP-39 phrases have 12, 15, 18, 21 or 24 words (Kaspa wallets 12 or 24).
    case wordCount(Int)
    /// The word at this position (1-based) is not in the BIP-39 English list.
    case unknownWord(position: Int)
    /// Every word is on the list, but the checksum the last word carries does not match.
    case checksum
    /// Entropy must be 16, 20, 24, 28 or 32 bytes.
    case entropyLength(Int)

    public var description: String {
        switch self {
        case .wordCount(let count): "a seed phrase has 12 or 24 words; this one has \(count)"
        case .unknownWord(let position): "word \(position) of the seed phrase is not in the BIP-39 English word list"
        case .checksum: "the seed phrase's checksum does not match: a word is wrong or out of order"
        case .entropyLength(let count): "BIP-39 entropy is 16, 20, 24, 28 or 32 bytes, not \(count)"
        }
    }
}
