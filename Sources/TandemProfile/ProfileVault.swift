import Foundation
package import SecretFiles
import TandemBasics

/// Where a protected profile's passphrase comes from, asked only when a secret is needed.
public struct PassphraseSource: Sendable {
    /// How to give a passphrase, for the error when there is none (the CLI names its options).
    public var hint: String
    /// The passphrase, or nil when none was given.
    public var read: @Sendable () throws -> String?

    public init(hint: String, read: @escaping @Sendable () throws -> String?) {
        self.hint = hint
        self.read = read
    }

    /// No passphrase: a protected profile's secrets stay closed.
    public static let none = PassphraseSource(hint: "no passphrase source was given") { nil }
}

/// The profile's secrets behind one ``SecretStore`` (issue 44 item 3), opened once per process:
/// the Keychain or another store an app hands in; else the encrypted keystore when the profile
/// has one (``Profile/File/keystore``); else the plain 0600 files. Shared by every copy of a
/// ``Profile``, so a command derives the keystore key (scrypt) once.
package final class ProfileVault: Sendable {
    /// The secrets a profile keeps, by their plain file names.
    static let secretFiles: [Profile.File] = [.walletSeed, .walletKey, .identityKey, .sessionCookies]

    let directory: URL
    let passphrase: PassphraseSource
    private let given: (any SecretStore)?
    /// The store once opened; the lock is held while opening, so a process asks once.
    private let opened = Locked<(any SecretStore)?>(nil)

    init(directory: URL, store: (any SecretStore)?, passphrase: PassphraseSource) {
        self.directory = directory
        self.given = store
        self.passphrase = passphrase
    }

    var keystoreURL: URL { directory.appendingPathComponent(Profile.File.keystore.rawValue) }

    var plainFiles: PlainSecretFiles {
        PlainSecretFiles(directory: directory, knownNames: Self.secretFiles.map(\.rawValue))
    }

    /// Whether an app handed in the store (the Keychain, say): no files hold the secrets.
    var keepsSecretsElsewhere: Bool { given != nil }

    /// Whether the secrets are encrypted under a passphrase.
    var isProtected: Bool { given == nil && KeystoreFile.exists(at: keystoreURL) }

    /// The store, opened on first use.
    func store() throws(ProfileError) -> any SecretStore {
        if let given { return given }
        return try opened.withLock { opened throws(ProfileError) -> any SecretStore in
            if let opened { return opened }
            let store: any SecretStore
            if KeystoreFile.exists(at: keystoreURL) {
                let keystore = try unlock()
                try finishProtecting(keystore)
                store = keystore
            } else {
                store = plainFiles
            }
            opened = store
            return store
        }
    }

    /// Runs `body` on the opened store, its failures in profile terms.
    package func use<T>(_ body: (any SecretStore) throws(SecretStoreError) -> T) throws(ProfileError) -> T {
        let store = try store()
        do { return try body(store) } catch { throw ProfileError(error) }
    }

    /// The passphrase, asked now; a profile error naming how to give one when there is none.
    func askPassphrase() throws(ProfileError) -> String {
        let text: String?
        do { text = try passphrase.read() } catch let error as ProfileError { throw error } catch {
            throw .passphraseUnavailable(String(describing: error))
        }
        guard let text, !text.isEmpty else { throw .passphraseRequired(hint: passphrase.hint) }
        return text
    }

    private func unlock() throws(ProfileError) -> KeystoreFile {
        let passphrase = try askPassphrase()
        do { return try KeystoreFile(opening: keystoreURL, passphrase: passphrase) } catch {
            throw ProfileError(error)
        }
    }

    /// A `keys protect` killed after the keystore landed left plain files beside it: each one the
    /// keystore holds identically (or lacks: it is added) is removed now. A plain file that
    /// disagrees with the keystore stays, untouched: the keystore wins, nothing is lost.
    func finishProtecting(_ keystore: KeystoreFile) throws(ProfileError) {
        let plain = plainFiles
        do {
            let leftovers = try plain.names()
            guard !leftovers.isEmpty else { return }
            let secrets = try keystore.readAll()
            for name in leftovers {
                guard let data = try plain.secret(name) else { continue }
                if secrets[name] == nil { try keystore.add(name, data) }
                if try keystore.secret(name) == data { try plain.remove(name) }
            }
        } catch { throw ProfileError(error) }
    }

    /// Uses `keystore`, just created, as the opened store.
    func adopt(_ keystore: KeystoreFile) {
        opened.withLock { $0 = keystore }
    }

    /// Forgets the opened store (after protect or unprotect changed where secrets live).
    func reset() {
        opened.withLock { $0 = nil }
    }
}
