import Foundation
public import SecretFiles

/// Protecting a profile's secrets with a passphrase (issue 44 item 3): `keys protect` and
/// `keys unprotect`.
extension Profile {
    /// Whether the secrets are encrypted in the profile's keystore.
    public var isProtected: Bool { vault.isProtected }

    /// How to give this profile's passphrase (from its ``PassphraseSource``).
    public var passphraseHint: String { vault.passphrase.hint }

    /// The names of the secrets the profile holds (`wallet.seed`, `identity.key`, …), without
    /// their contents.
    public func secretNames() throws(ProfileError) -> [String] {
        try vault.use { store throws(SecretStoreError) in try store.names() }
    }

    /// Moves every plain secret into a keystore encrypted under `passphrase`, then removes the
    /// plain files. The keystore lands whole (written aside, renamed over), and a kill before
    /// the plain files are gone is finished by the next open (``ProfileVault/finishProtecting(_:)``),
    /// so a crash leaves the old profile or the new one, both usable.
    ///
    /// `checkpoint` is called at each ``ProtectStage``: the crash tests stop the process there.
    public func protectSecrets(
        passphrase: String, cost: KeystoreFile.Cost = .standard, checkpoint: (ProtectStage) -> Void = { _ in }
    ) throws(ProfileError) {
        guard !passphrase.isEmpty else { throw .emptyPassphrase }
        guard !vault.keepsSecretsElsewhere else {
            throw .secretStore("the app keeps this profile's secrets in its own store")
        }
        guard !isProtected else { throw .alreadyProtected }
        let plain = vault.plainFiles
        let keystore: KeystoreFile
        do {
            try SecretFile.createDirectory(directory)
            var secrets: [String: Data] = [:]
            for name in try plain.names() { secrets[name] = try plain.secret(name) }
            checkpoint(.secretsRead)
            keystore = try KeystoreFile(
                creating: vault.keystoreURL, passphrase: passphrase, secrets: secrets, cost: cost)
            checkpoint(.keystoreWritten)
            for (position, name) in secrets.keys.sorted().enumerated() {
                try plain.remove(name)
                if position == 0 { checkpoint(.firstPlainFileRemoved) }
            }
        } catch SecretFileError.fileSystem(let path, let reason) {
            throw .fileSystem(path: path, reason: reason)
        } catch let error as SecretStoreError {
            throw ProfileError(error)
        } catch {
            throw .fileSystem(path: directory.path, reason: "\(error)")
        }
        // The key is derived already: later reads of this profile value cost no second scrypt.
        vault.adopt(keystore)
    }

    /// Writes every secret back as a plain 0600 file and removes the keystore. A kill before the
    /// keystore is gone leaves it in charge (the plain copies are removed at the next open), so
    /// `keys unprotect` is simply run again.
    public func unprotectSecrets(passphrase: String) throws(ProfileError) {
        guard isProtected else { throw .notProtected }
        let keystore: KeystoreFile
        do { keystore = try KeystoreFile(opening: vault.keystoreURL, passphrase: passphrase) } catch {
            throw ProfileError(error)
        }
        let plain = vault.plainFiles
        do {
            for (name, data) in try keystore.readAll() { try plain.set(name, data) }
            try FileManager.default.removeItem(at: vault.keystoreURL)
        } catch let error as SecretStoreError {
            throw ProfileError(error)
        } catch {
            throw .fileSystem(path: vault.keystoreURL.path, reason: "cannot remove the keystore")
        }
        try? FileManager.default.removeItem(atPath: vault.keystoreURL.path + ".lock")
        vault.reset()
    }
}

/// The steps of ``Profile/protectSecrets(passphrase:cost:checkpoint:)`` a kill can fall between.
public enum ProtectStage: String, Sendable, CaseIterable {
    /// The plain secrets are read; nothing is written yet.
    case secretsRead = "secrets-read"
    /// The keystore is in place; every plain file is still there.
    case keystoreWritten = "keystore-written"
    /// One plain file is gone, the others not yet.
    case firstPlainFileRemoved = "first-plain-file-removed"
}
