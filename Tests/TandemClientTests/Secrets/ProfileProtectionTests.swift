import Foundation
import KaspaCrypto
import SecretFiles
import TandemAccounts
import TandemBasics
import TandemProfile
import TestSupport
import Testing

/// A profile's secrets encrypted at rest (issue 44 item 3).
@Suite struct ProfileProtectionTests {
    static let cheap = KeystoreFile.Cost(n: 1 << 10, r: 8, p: 1)

    static func passphrase(_ text: String?) -> PassphraseSource {
        PassphraseSource(hint: "give it") { text }
    }

    /// Every secret a profile can hold, made: seed, identity key, session cookies.
    static func fullProfile(_ url: URL) throws -> (Profile, Mnemonic) {
        let profile = Profile(directory: url)
        let mnemonic = try profile.createWalletSeed()
        _ = try profile.openTasks()
        try profile.sessionCookies.apply(
            setCookies: ["better-auth.session_token=tok123secret; Path=/; HttpOnly"], from: "http://127.0.0.1:1",
            now: Date())
        return (profile, mnemonic)
    }

    @Test func protectingEncryptsEverySecretAndTheFilesHoldNoKeyBytes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (plain, mnemonic) = try Self.fullProfile(dir.url)
        let walletKey = try plain.walletKey()
        let identity = try plain.openTasks().identity.key
        let secrets = try plain.secretNames()
        #expect(secrets == ["identity.key", "session-cookies.json", "wallet.seed"])

        try plain.protectSecrets(passphrase: "correct horse", cost: Self.cheap)
        #expect(plain.isProtected)
        for name in secrets {
            #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent(name).path))
        }

        // No file of the profile holds a secret in any spelling.
        let needles = [
            mnemonic.words[0] + " " + mnemonic.words[1], walletKey.hexRepresentation, Hex.encode(identity.seed),
            "tok123secret",
        ]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.url.path) {
            let bytes = try Data(contentsOf: dir.url.appendingPathComponent(name))
            let text = String(decoding: bytes, as: UTF8.self)
            for needle in needles { #expect(!text.contains(needle), "\(name)") }
            #expect(bytes.range(of: Data(walletKey.rawRepresentation)) == nil, "\(name)")
            #expect(bytes.range(of: Data(identity.seed)) == nil, "\(name)")
        }

        // With the passphrase, everything reads back.
        let reopened = Profile(directory: dir.url, passphrase: Self.passphrase("correct horse"))
        #expect(try reopened.walletKey() == walletKey)
        #expect(try reopened.openTasks().identity.key.seed == identity.seed)
        #expect(
            try reopened.sessionCookies.cookieHeader(for: "http://127.0.0.1:1", now: Date())?.contains("tok123secret")
                == true)
    }

    @Test func withoutOrWithAWrongPassphraseNothingOpens() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (plain, _) = try Self.fullProfile(dir.url)
        try plain.protectSecrets(passphrase: "right", cost: Self.cheap)
        let none = Profile(directory: dir.url)
        #expect(throws: ProfileError.passphraseRequired(hint: "no passphrase source was given")) {
            try none.walletKey()
        }
        #expect(throws: ProfileError.self) { try none.openTasks() }
        let wrong = Profile(directory: dir.url, passphrase: Self.passphrase("wrong"))
        #expect(throws: ProfileError.wrongPassphrase) { try wrong.walletKey() }
        #expect(throws: ProfileError.wrongPassphrase) {
            try wrong.sessionCookies.cookieHeader(for: "http://127.0.0.1:1", now: Date())
        }
        #expect(throws: ProfileError.alreadyProtected) {
            try plain.protectSecrets(passphrase: "again", cost: Self.cheap)
        }
    }

    @Test func unprotectingRestoresThePlainFiles() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (plain, _) = try Self.fullProfile(dir.url)
        let walletKey = try plain.walletKey()
        try plain.protectSecrets(passphrase: "pw", cost: Self.cheap)
        let opened = Profile(directory: dir.url, passphrase: Self.passphrase("pw"))
        #expect(throws: ProfileError.wrongPassphrase) { try opened.unprotectSecrets(passphrase: "nope") }
        try opened.unprotectSecrets(passphrase: "pw")
        #expect(!opened.isProtected)
        #expect(!FileManager.default.fileExists(atPath: opened.url(.keystore).path))
        #expect(try Profile(directory: dir.url).walletKey() == walletKey)
        #expect(throws: ProfileError.notProtected) { try opened.unprotectSecrets(passphrase: "pw") }
    }

    @Test func secretsAddedWhileProtectedStayEncrypted() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let profile = Profile(directory: dir.url, passphrase: Self.passphrase("pw"))
        try profile.protectSecrets(passphrase: "pw", cost: Self.cheap)  // empty: start protected
        let mnemonic = try profile.createWalletSeed(wordCount: 12)
        _ = try profile.openTasks()
        #expect(try profile.secretNames() == ["identity.key", "wallet.seed"])
        #expect(!FileManager.default.fileExists(atPath: profile.url(.walletSeed).path))
        #expect(!FileManager.default.fileExists(atPath: profile.url(.identityKey).path))
        let keystore = try String(contentsOf: profile.url(.keystore), encoding: .utf8)
        #expect(!keystore.contains(mnemonic.words[0] + " " + mnemonic.words[1]))
    }

    @Test func aProtectKilledBeforeThePlainFilesWentIsFinishedAtTheNextOpen() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (plain, _) = try Self.fullProfile(dir.url)
        let walletKey = try plain.walletKey()
        // The state a kill leaves between the keystore's rename and the plain files' removal,
        // with one secret the keystore does not hold yet.
        let files = PlainSecretFiles(
            directory: dir.url, knownNames: ["wallet.seed", "identity.key", "session-cookies.json"])
        var secrets: [String: Data] = [:]
        for name in ["wallet.seed", "identity.key"] { secrets[name] = try files.secret(name) }
        _ = try KeystoreFile(creating: plain.url(.keystore), passphrase: "pw", secrets: secrets, cost: Self.cheap)

        let reopened = Profile(directory: dir.url, passphrase: Self.passphrase("pw"))
        #expect(try reopened.walletKey() == walletKey)
        #expect(try files.names().isEmpty)
        #expect(try reopened.secretNames() == ["identity.key", "session-cookies.json", "wallet.seed"])
    }
}

/// The keystore file on its own: tampering, forged costs, and two writers.
@Suite struct KeystoreFileTests {
    static let cheap = KeystoreFile.Cost(n: 1 << 10, r: 8, p: 1)

    @Test func aTamperedFileFailsItsTagAndAForgedCostIsRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let url = dir.url.appendingPathComponent("keystore.json")
        _ = try KeystoreFile(creating: url, passphrase: "pw", secrets: ["a": Data("secret".utf8)], cost: Self.cheap)
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        var sealed = Array(Data(base64Encoded: json["ciphertext"] as? String ?? "") ?? Data())
        sealed[0] ^= 1
        json["ciphertext"] = Data(sealed).base64EncodedString()
        try JSONSerialization.data(withJSONObject: json).write(to: url)
        #expect(throws: SecretStoreError.wrongPassphrase) { try KeystoreFile(opening: url, passphrase: "pw") }

        var kdf = json["kdf"] as? [String: Any] ?? [:]
        kdf["n"] = 1 << 30
        json["kdf"] = kdf
        try JSONSerialization.data(withJSONObject: json).write(to: url)
        #expect(throws: SecretStoreError.damaged(path: url.path, reason: "scrypt cost out of range")) {
            try KeystoreFile(opening: url, passphrase: "pw")
        }
        try Data("not json".utf8).write(to: url)
        #expect(throws: SecretStoreError.damaged(path: url.path, reason: "not a Tandem keystore")) {
            try KeystoreFile(opening: url, passphrase: "pw")
        }
        #expect(throws: SecretStoreError.emptyPassphrase) { try KeystoreFile(opening: url, passphrase: "") }
    }

    @Test func twoOpenersNeverLoseEachOthersSecrets() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let url = dir.url.appendingPathComponent("keystore.json")
        _ = try KeystoreFile(creating: url, passphrase: "pw", secrets: [:], cost: Self.cheap)
        let first = try KeystoreFile(opening: url, passphrase: "pw")
        let second = try KeystoreFile(opening: url, passphrase: "pw")
        try first.add("one", Data([1]))
        try second.add("two", Data([2]))
        #expect(throws: SecretStoreError.exists("one")) { try second.add("one", Data([9])) }
        try first.set("one", Data([3]))
        #expect(try second.readAll() == ["one": Data([3]), "two": Data([2])])
        try second.remove("one")
        #expect(try first.names() == ["two"])
    }
}
