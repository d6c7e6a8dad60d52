public import Foundation
public import KaspaCrypto
import SecretFiles

/// What the wallet of a profile was made from.
public enum WalletSource: String, Sendable, Codable {
    /// A BIP-39 seed phrase (``Profile/File/walletSeed``): the same words open it in KaChat and Kasia.
    case mnemonic
    /// A bare secp256k1 key (``Profile/File/walletKey``), as profiles were made before issue 44.
    case raw
}

/// The wallet's seed as a profile keeps it (``Profile/File/walletSeed``, a secret):
/// `{"account":0,"mnemonic":"…","passphrase":"…"}`, the passphrase member absent without one.
public struct WalletSeed: Sendable, Equatable, Codable {
    /// The words, normalised (lowercase, single spaces).
    public var mnemonic: String
    /// The BIP-39 passphrase ("25th word"); nil for none.
    public var passphrase: String?
    /// The BIP-44 account whose first receive key is the chatting identity.
    public var account: UInt32

    public init(mnemonic: Mnemonic, passphrase: String?, account: UInt32) {
        self.mnemonic = mnemonic.phrase
        self.passphrase = passphrase.flatMap { $0.isEmpty ? nil : $0 }
        self.account = account
    }

    /// The BIP-32 master key of the words and passphrase.
    public func masterKey() throws(ProfileError) -> ExtendedPrivateKey {
        do {
            return try ExtendedPrivateKey(seed: Mnemonic(phrase: mnemonic).seed(passphrase: passphrase ?? ""))
        } catch { throw .invalidWalletKey(path: Profile.File.walletSeed.rawValue, reason: "\(error)") }
    }

    /// The chatting key's path, `m/44'/111111'/<account>'/0/0`.
    public var chattingPath: DerivationPath {
        get throws(ProfileError) {
            do { return try KaspaDerivation.chatting(account: account) } catch {
                throw .invalidWalletKey(path: Profile.File.walletSeed.rawValue, reason: error.description)
            }
        }
    }

    /// The chatting key: KaChat's identity and Kasia web's wallet key for the same words.
    public func chattingKey() throws(ProfileError) -> PrivateKey {
        let master = try masterKey()
        let path = try chattingPath
        do { return try master.derive(path).privateKey } catch {
            throw .invalidWalletKey(path: Profile.File.walletSeed.rawValue, reason: error.description)
        }
    }
}

extension Profile {
    /// What the wallet was made from; nil when the profile has no wallet yet.
    public func walletSource() throws(ProfileError) -> WalletSource? {
        try vault.use { store throws(SecretStoreError) in
            if try store.secret(File.walletSeed.rawValue) != nil { return .mnemonic }
            if try store.secret(File.walletKey.rawValue) != nil { return .raw }
            return nil
        }
    }

    /// The seed of a wallet made from words; nil for a raw-key wallet or none.
    public func walletSeed() throws(ProfileError) -> WalletSeed? {
        guard let data = try vault.use({ store throws(SecretStoreError) in try store.secret(File.walletSeed.rawValue) })
        else { return nil }
        guard let seed = try? JSONDecoder().decode(WalletSeed.self, from: data) else {
            throw .corruptFile(path: url(.walletSeed).path, reason: "not a wallet seed")
        }
        return seed
    }

    /// The seed of a wallet made from words; ``ProfileError/noSeedPhrase`` for a raw-key wallet
    /// and ``ProfileError/walletKeyMissing(path:)`` without one.
    public func requireWalletSeed() throws(ProfileError) -> WalletSeed {
        if let seed = try walletSeed() { return seed }
        if try walletSource() == nil { throw .walletKeyMissing(path: directory.path) }
        throw .noSeedPhrase
    }

    /// The chatting key every `kasia`, `chat` and `kaspa` command signs and decrypts with: the
    /// seed's `m/44'/111111'/<account>'/0/0`, or the raw key.
    public func walletKey() throws(ProfileError) -> PrivateKey {
        if let seed = try walletSeed() { return try seed.chattingKey() }
        guard let data = try vault.use({ store throws(SecretStoreError) in try store.secret(File.walletKey.rawValue) })
        else { throw .walletKeyMissing(path: url(.walletKey).path) }
        return try Profile.privateKey(fromKeyFile: data, path: url(.walletKey).path)
    }

    /// The wallet's Kaspa address (mainnet, Schnorr).
    public func walletAddress() throws(ProfileError) -> KaspaAddress {
        KaspaAddress(publicKey: try walletKey().xOnlyPublicKey)
    }

    /// Makes a new wallet from fresh words (24 unless `wordCount` is 12); never replaces one.
    /// The caller shows the words once.
    public func createWalletSeed(wordCount: Int = 24, account: UInt32 = 0) throws(ProfileError) -> Mnemonic {
        let mnemonic: Mnemonic
        do { mnemonic = try Mnemonic.generate(wordCount: wordCount) } catch {
            throw .invalidSeedPhrase(error.description)
        }
        try importWalletSeed(WalletSeed(mnemonic: mnemonic, passphrase: nil, account: account))
        return mnemonic
    }

    /// Opens an existing wallet from its words; never replaces a wallet. Only the 12 and 24 words
    /// Kaspa wallets use are taken.
    public func importWalletSeed(_ seed: WalletSeed) throws(ProfileError) {
        let words: Mnemonic
        do { words = try Mnemonic(phrase: seed.mnemonic) } catch { throw .invalidSeedPhrase(error.description) }
        guard Mnemonic.kaspaWordCounts.contains(words.words.count) else {
            throw .invalidSeedPhrase(MnemonicError.wordCount(words.words.count).description)
        }
        _ = try seed.chattingPath
        try refuseExistingWallet()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(seed) else {
            throw .fileSystem(path: url(.walletSeed).path, reason: "cannot encode the seed")
        }
        try add(.walletSeed, data + Data("\n".utf8))
    }

    /// Creates a new raw wallet key from the system CSPRNG; never overwrites an existing wallet.
    @discardableResult
    public func createWalletKey() throws(ProfileError) -> PrivateKey {
        try importWalletKey(PrivateKey.generate())
    }

    /// Stores `key` as the wallet key (a restore from a backed-up raw key); never replaces a wallet.
    @discardableResult
    public func importWalletKey(_ key: PrivateKey) throws(ProfileError) -> PrivateKey {
        try refuseExistingWallet()
        try add(.walletKey, Data((key.hexRepresentation + "\n").utf8))
        return key
    }

    /// Adds a wallet secret; one that appeared meanwhile (a racing process) is never replaced.
    private func add(_ file: File, _ data: Data) throws(ProfileError) {
        let store = try vault.store()
        do { try store.add(file.rawValue, data) } catch .exists {
            throw .walletKeyExists(path: url(file).path)
        } catch { throw ProfileError(error) }
    }

    /// Throws ``ProfileError/walletKeyExists(path:)`` when the profile has a wallet already.
    public func refuseExistingWallet() throws(ProfileError) {
        switch try walletSource() {
        case .mnemonic?: throw .walletKeyExists(path: url(.walletSeed).path)
        case .raw?: throw .walletKeyExists(path: url(.walletKey).path)
        case nil: break
        }
    }

    /// Parses key-file contents: 64 hex characters, surrounding whitespace and a trailing
    /// newline allowed. `path` names the source in errors ("-" for stdin).
    public static func privateKey(fromKeyFile data: Data, path: String) throws(ProfileError) -> PrivateKey {
        guard let text = String(data: data, encoding: .utf8) else {
            throw .invalidWalletKey(path: path, reason: "not UTF-8 text")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count == 64 else {
            throw .invalidWalletKey(path: path, reason: "expected 64 hex characters, found \(trimmed.utf8.count)")
        }
        do { return try PrivateKey(hex: trimmed) } catch {
            throw .invalidWalletKey(path: path, reason: error.description)
        }
    }
}
