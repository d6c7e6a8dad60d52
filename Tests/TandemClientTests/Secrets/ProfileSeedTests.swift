import Foundation
import KaspaCrypto
import TandemProfile
import TandemWallet
import TestSupport
import Testing

/// A profile made or opened from a seed phrase (issue 44 item 1).
@Suite struct ProfileSeedTests {
    static let words = "legal winner thank year wave sausage worth useful legal winner thank yellow"

    @Test func aNewSeedGivesTheChattingKeyOfItsWordsAndIsNeverReplaced() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let profile = Profile(directory: dir.url.appendingPathComponent("p"))
        #expect(try profile.walletSource() == nil)
        let mnemonic = try profile.createWalletSeed()
        #expect(mnemonic.words.count == 24)
        #expect(try profile.walletSource() == .mnemonic)
        // Independently: the words' m/44'/111111'/0'/0/0.
        let expected = try ExtendedPrivateKey(seed: mnemonic.seed()).derive(
            DerivationPath(parsing: "m/44'/111111'/0'/0/0"))
        #expect(try profile.walletKey() == expected.privateKey)
        #expect(try profile.walletSeed()?.mnemonic == mnemonic.phrase)
        #expect(throws: ProfileError.walletKeyExists(path: profile.url(.walletSeed).path)) {
            try profile.createWalletSeed(wordCount: 12)
        }
        #expect(throws: ProfileError.walletKeyExists(path: profile.url(.walletSeed).path)) {
            try profile.createWalletKey()
        }
        #expect(try profile.walletKey() == expected.privateKey)
        let mode = try FileManager.default.attributesOfItem(atPath: profile.url(.walletSeed).path)[.posixPermissions]
        #expect((mode as? NSNumber)?.intValue == 0o600)
    }

    @Test func theBip39PassphraseAndTheAccountChooseTheKey() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let mnemonic = try Mnemonic(phrase: Self.words)
        var keys: [PrivateKey] = []
        for (name, passphrase, account) in [("a", nil, UInt32(0)), ("b", "TREZOR", 0), ("c", nil, 1), ("d", "", 0)] {
            let profile = Profile(directory: dir.url.appendingPathComponent(name))
            try profile.importWalletSeed(WalletSeed(mnemonic: mnemonic, passphrase: passphrase, account: account))
            let path = try DerivationPath(parsing: "m/44'/111111'/\(account)'/0/0")
            let expected = try ExtendedPrivateKey(seed: mnemonic.seed(passphrase: passphrase ?? "")).derive(path)
            #expect(try profile.walletKey() == expected.privateKey)
            keys.append(try profile.walletKey())
        }
        #expect(keys[0] != keys[1] && keys[0] != keys[2] && keys[0] == keys[3])
    }

    @Test func aRawKeyProfileKeepsWorkingAndHasNoWords() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let profile = Profile(directory: dir.url)
        let key = try profile.createWalletKey()
        #expect(try profile.walletSource() == .raw)
        #expect(try profile.walletSeed() == nil)
        #expect(try profile.walletKey() == key)
        #expect(throws: ProfileError.walletKeyExists(path: profile.url(.walletKey).path)) {
            try profile.importWalletSeed(
                WalletSeed(mnemonic: Mnemonic(phrase: Self.words), passphrase: nil, account: 0))
        }
    }

    @Test func onlyTwelveOrTwentyFourWordsAreImported() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let profile = Profile(directory: dir.url.appendingPathComponent("p"))
        let eighteen = try Mnemonic(entropy: [UInt8](repeating: 9, count: 24))
        #expect(throws: ProfileError.invalidSeedPhrase(MnemonicError.wordCount(18).description)) {
            try profile.importWalletSeed(WalletSeed(mnemonic: eighteen, passphrase: nil, account: 0))
        }
        #expect(!FileManager.default.fileExists(atPath: profile.url(.walletSeed).path))
    }

    @Test func theChainsListTheSDKsAddresses() throws {
        let vector = try KaspaHDVectors.load().vectors[1]
        let seed = WalletSeed(
            mnemonic: try Mnemonic(phrase: vector.mnemonic), passphrase: vector.passphrase, account: vector.account)
        let listed = try WalletKeyChains(seed: seed).addresses(count: 3, network: .mainnet)
        #expect(listed.map(\.address) == vector.addresses.map(\.address))
        #expect(listed.map(\.chain.rawValue) == vector.addresses.map(\.chain))
        #expect(listed[3].path == "m/44'/111111'/\(vector.account)'/1/0")
        #expect(listed[8].path == "m/44'/111111'/1'/0/2")
    }
}
