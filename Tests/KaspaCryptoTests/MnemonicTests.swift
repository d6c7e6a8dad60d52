import Crypto
import ExtendedKeyText
import Foundation
import KaspaCrypto
import TandemBasics
import TestSupport
import Testing

/// The reference vectors of BIP-39 and BIP-32 (`hd-wallet-vectors.json`).
struct HDWalletVectors: Decodable {
    struct MnemonicVector: Decodable {
        let entropy: String
        let mnemonic: String
        let seed: String
        let xprv: String
    }
    struct BIP39: Decodable {
        let passphrase: String
        let english: [MnemonicVector]
    }
    struct Chain: Decodable {
        let path: String
        let xpub: String
        let xprv: String
    }
    struct TreeVector: Decodable {
        let seed: String
        let chains: [Chain]
    }
    struct InvalidKey: Decodable {
        let key: String
        let reason: String
    }
    struct BIP32: Decodable {
        let valid: [TreeVector]
        let invalid: [InvalidKey]
    }
    let bip39: BIP39
    let bip32: BIP32

    static func load() throws -> HDWalletVectors { try Vectors.decode(HDWalletVectors.self, from: "hd-wallet-vectors") }
}

private let vectors = Result { try HDWalletVectors.load() }

@Suite("BIP-39 seed phrases")
struct MnemonicTests {
    @Test func theWordListIsTheStandardOne() throws {
        // SHA-256 of BIP-39's english.txt, one word per line with a final newline.
        let text = Mnemonic.englishWords.joined(separator: "\n") + "\n"
        #expect(
            Hex.encode(Array(SHA256.hash(data: Array(text.utf8))))
                == "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda")
        #expect(Mnemonic.englishWords.count == 2048)
    }

    @Test func everyPublishedVectorGivesItsWordsSeedAndMasterKey() throws {
        let bip39 = try vectors.get().bip39
        #expect(bip39.english.count == 24)
        for vector in bip39.english {
            let entropy = try Hex.decode(vector.entropy)
            let fromEntropy = try Mnemonic(entropy: entropy)
            #expect(fromEntropy.phrase == vector.mnemonic)
            let parsed = try Mnemonic(phrase: vector.mnemonic)
            #expect(parsed.entropy == entropy)
            let seed = parsed.seed(passphrase: bip39.passphrase)
            #expect(Hex.encode(seed) == vector.seed)
            #expect(try ExtendedPrivateKey(seed: seed).serialized() == vector.xprv)
        }
    }

    @Test func parsingForgivesCaseAndSpacingButNothingElse() throws {
        let words = try vectors.get().bip39.english[1].mnemonic
        let messy = "  " + words.uppercased().replacingOccurrences(of: " ", with: " \n\t ") + "\n"
        #expect(try Mnemonic(phrase: messy).phrase == words)
    }

    @Test func aWrongWordCountIsRefused() throws {
        let words = try vectors.get().bip39.english[1].mnemonic.split(separator: " ")
        #expect(throws: MnemonicError.wordCount(11)) { try Mnemonic(phrase: words.dropLast().joined(separator: " ")) }
        #expect(throws: MnemonicError.wordCount(13)) {
            try Mnemonic(phrase: (words + ["abandon"]).joined(separator: " "))
        }
        #expect(throws: MnemonicError.wordCount(0)) { try Mnemonic(phrase: " \n ") }
    }

    @Test func anUnknownWordIsNamedByPositionOnly() throws {
        var words = try vectors.get().bip39.english[1].mnemonic.split(separator: " ").map(String.init)
        words[4] = "bitcoinz"
        let error = #expect(throws: MnemonicError.self) { try Mnemonic(phrase: words.joined(separator: " ")) }
        #expect(error == .unknownWord(position: 5))
        #expect(error?.description.contains("bitcoinz") == false)
        #expect(error?.description.contains(words[0]) == false)
    }

    @Test func aSwappedWordFailsTheChecksum() throws {
        var words = try vectors.get().bip39.english[2].mnemonic.split(separator: " ").map(String.init)
        words.swapAt(0, 1)  // "letter advice" → "advice letter"
        #expect(words[0] != words[1])
        #expect(throws: MnemonicError.checksum) { try Mnemonic(phrase: words.joined(separator: " ")) }
    }

    @Test func generatedPhrasesHaveTheAskedLengthAndRoundTrip() throws {
        for count in [12, 24] {
            let phrase = try Mnemonic.generate(wordCount: count)
            #expect(phrase.words.count == count)
            #expect(try Mnemonic(phrase: phrase.phrase) == phrase)
        }
        #expect(try Mnemonic.generate().words.count == 24)
        #expect(throws: MnemonicError.wordCount(18)) { try Mnemonic.generate(wordCount: 18) }
        #expect(try Mnemonic.generate(wordCount: 12) != Mnemonic.generate(wordCount: 12))
    }

    @Test func thePassphraseIsNormalisedAndChangesTheWallet() throws {
        let phrase = try Mnemonic(phrase: vectors.get().bip39.english[0].mnemonic)
        // "é" precomposed and decomposed are one passphrase after NFKD.
        #expect(phrase.seed(passphrase: "caf\u{E9}") == phrase.seed(passphrase: "cafe\u{301}"))
        #expect(phrase.seed(passphrase: "") != phrase.seed(passphrase: "TREZOR"))
    }

    @Test func describingAPhraseNeverShowsItsWords() throws {
        let phrase = try Mnemonic(phrase: vectors.get().bip39.english[0].mnemonic)
        #expect(String(describing: phrase) == "Mnemonic(12 words)")
        #expect(!String(reflecting: phrase).contains("abandon"))
    }
}
