import Crypto
public import Foundation
import TandemBasics
import _CryptoExtras

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A profile's secrets encrypted under a passphrase in one file (issue 44 item 3): scrypt
/// (swift-crypto's extras; its parameters and salt stored in the file) makes a 256-bit key,
/// ChaCha20-Poly1305 seals a JSON map of every secret. A wrong passphrase fails the tag, so it is
/// detected and never decrypts to garbage. Every write re-seals the whole map under a fresh nonce
/// and replaces the file atomically (a crash leaves the old file or the new one), holding an
/// advisory lock so two processes of one profile never lose each other's secret.
///
/// ```json
/// {"format":"tandem-keystore","version":1,
///  "kdf":{"name":"scrypt","n":131072,"r":8,"p":1,"salt":"<base64, 16 bytes>"},
///  "cipher":{"name":"chacha20-poly1305","nonce":"<base64, 12 bytes>"},
///  "ciphertext":"<base64 of ciphertext ‖ tag>"}
/// ```
/// The associated data binds the header: `tandem-keystore/v1 scrypt <n> <r> <p> <salt> chacha20-poly1305`.
public final class KeystoreFile: SecretStore, Sendable {
    /// scrypt's cost. The default asks 128 MiB and about 0.6 s of one core (a release build,
    /// measured in session 32), once per process that opens the profile; tests pass a cheap cost.
    public struct Cost: Sendable, Equatable, Codable {
        public var n: Int
        public var r: Int
        public var p: Int

        public init(n: Int, r: Int, p: Int) {
            self.n = n
            self.r = r
            self.p = p
        }

        public static let standard = Cost(n: 1 << 17, r: 8, p: 1)

        /// What a file may ask before it is refused as damaged: a forged header must not make
        /// an open allocate gigabytes (scrypt needs 128·n·r·p bytes).
        var isAcceptable: Bool {
            n >= 2 && n & (n - 1) == 0 && n <= 1 << 20 && (1...32).contains(r) && (1...16).contains(p)
                && 128 * n * r <= 1 << 30
        }
    }

    public let url: URL
    private let passphrase: String
    /// The key and salt last derived, so writes after an open cost no scrypt.
    private let derived: Locked<Derived>

    private struct Derived {
        var salt: [UInt8]
        var cost: Cost
        var key: SymmetricKey
    }

    /// Whether `url` holds a keystore (a protected profile).
    public static func exists(at url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    /// Opens the keystore at `url`: derives the key and checks it against the file's tag.
    public init(opening url: URL, passphrase: String) throws(SecretStoreError) {
        guard !passphrase.isEmpty else { throw .emptyPassphrase }
        self.url = url
        self.passphrase = passphrase
        let file = try Self.readFile(url)
        let key = try Self.deriveKey(passphrase, salt: file.salt, cost: file.cost)
        derived = Locked(Derived(salt: file.salt, cost: file.cost, key: key))
        _ = try unseal(file)
    }

    /// Creates (or replaces) the keystore at `url` holding `secrets`, under a fresh salt.
    public init(
        creating url: URL, passphrase: String, secrets: [String: Data], cost: Cost = .standard
    ) throws(SecretStoreError) {
        guard !passphrase.isEmpty else { throw .emptyPassphrase }
        guard cost.isAcceptable else { throw .damaged(path: url.path, reason: "scrypt cost out of range") }
        self.url = url
        self.passphrase = passphrase
        let salt = Self.randomBytes(16)
        derived = Locked(Derived(salt: salt, cost: cost, key: try Self.deriveKey(passphrase, salt: salt, cost: cost)))
        try withFileLock { () throws(SecretStoreError) in try write(secrets) }
    }

    public func secret(_ name: String) throws(SecretStoreError) -> Data? { try readAll()[name] }

    public func add(_ name: String, _ data: Data) throws(SecretStoreError) {
        try modify { secrets throws(SecretStoreError) in
            guard secrets[name] == nil else { throw .exists(name) }
            secrets[name] = data
        }
    }

    public func set(_ name: String, _ data: Data) throws(SecretStoreError) {
        try modify { secrets in secrets[name] = data }
    }

    public func remove(_ name: String) throws(SecretStoreError) {
        try modify { secrets in secrets[name] = nil }
    }

    public func names() throws(SecretStoreError) -> [String] { try readAll().keys.sorted() }

    /// Every secret, decrypted.
    public func readAll() throws(SecretStoreError) -> [String: Data] {
        try unseal(try Self.readFile(url))
    }

    // MARK: - File

    private struct Header: Codable {
        struct KDF: Codable {
            var name: String
            var n: Int
            var r: Int
            var p: Int
            var salt: String
        }
        struct Cipher: Codable {
            var name: String
            var nonce: String
        }
        var format: String
        var version: Int
        var kdf: KDF
        var cipher: Cipher
        var ciphertext: String
    }

    private struct Sealed {
        var salt: [UInt8]
        var cost: Cost
        var nonce: [UInt8]
        var ciphertext: [UInt8]
    }

    private static func readFile(_ url: URL) throws(SecretStoreError) -> Sealed {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .fileSystem(path: url.path, reason: "cannot read the keystore")
        }
        guard let header = try? JSONDecoder().decode(Header.self, from: data), header.format == "tandem-keystore"
        else { throw .damaged(path: url.path, reason: "not a Tandem keystore") }
        guard header.version == 1, header.kdf.name == "scrypt", header.cipher.name == "chacha20-poly1305" else {
            throw .damaged(path: url.path, reason: "unsupported keystore version or algorithm")
        }
        let cost = Cost(n: header.kdf.n, r: header.kdf.r, p: header.kdf.p)
        guard cost.isAcceptable else { throw .damaged(path: url.path, reason: "scrypt cost out of range") }
        guard let salt = Data(base64Encoded: header.kdf.salt), salt.count >= 16,
            let nonce = Data(base64Encoded: header.cipher.nonce), nonce.count == 12,
            let ciphertext = Data(base64Encoded: header.ciphertext), ciphertext.count >= 16
        else { throw .damaged(path: url.path, reason: "bad salt, nonce or ciphertext") }
        return Sealed(salt: Array(salt), cost: cost, nonce: Array(nonce), ciphertext: Array(ciphertext))
    }

    private static func associatedData(salt: [UInt8], cost: Cost) -> Data {
        Data(
            "tandem-keystore/v1 scrypt \(cost.n) \(cost.r) \(cost.p) \(Data(salt).base64EncodedString()) chacha20-poly1305"
                .utf8)
    }

    private func key(for file: Sealed) throws(SecretStoreError) -> SymmetricKey {
        if let key = derived.withLock({ $0.salt == file.salt && $0.cost == file.cost ? $0.key : nil }) { return key }
        // Another process re-protected the profile (a fresh salt): the passphrase must still fit.
        let key = try Self.deriveKey(passphrase, salt: file.salt, cost: file.cost)
        derived.withLock { $0 = Derived(salt: file.salt, cost: file.cost, key: key) }
        return key
    }

    private func unseal(_ file: Sealed) throws(SecretStoreError) -> [String: Data] {
        let key = try key(for: file)
        let plaintext: Data
        do {
            let box = try ChaChaPoly.SealedBox(
                nonce: ChaChaPoly.Nonce(data: file.nonce), ciphertext: file.ciphertext.dropLast(16),
                tag: file.ciphertext.suffix(16))
            plaintext = try ChaChaPoly.open(
                box, using: key, authenticating: Self.associatedData(salt: file.salt, cost: file.cost))
        } catch { throw .wrongPassphrase }
        guard let map = try? JSONDecoder().decode([String: Data].self, from: plaintext) else {
            throw .damaged(path: url.path, reason: "the decrypted secrets are not a JSON map")
        }
        return map
    }

    private func write(_ secrets: [String: Data]) throws(SecretStoreError) {
        let (salt, cost, key) = derived.withLock { ($0.salt, $0.cost, $0.key) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let sealed: ChaChaPoly.SealedBox
        do {
            let plaintext = try encoder.encode(secrets)
            sealed = try ChaChaPoly.seal(
                plaintext, using: key, nonce: ChaChaPoly.Nonce(),
                authenticating: Self.associatedData(salt: salt, cost: cost))
        } catch { throw .damaged(path: url.path, reason: "cannot seal the secrets") }
        let header = Header(
            format: "tandem-keystore", version: 1,
            kdf: .init(name: "scrypt", n: cost.n, r: cost.r, p: cost.p, salt: Data(salt).base64EncodedString()),
            cipher: .init(name: "chacha20-poly1305", nonce: Data(sealed.nonce).base64EncodedString()),
            ciphertext: (sealed.ciphertext + sealed.tag).base64EncodedString())
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        guard let data = try? encoder.encode(header) else {
            throw .damaged(path: url.path, reason: "cannot encode the keystore")
        }
        do { try SecretFile.replace(url, contents: data + Data("\n".utf8)) } catch { throw SecretStoreError(error) }
    }

    private func modify(_ change: (inout [String: Data]) throws(SecretStoreError) -> Void) throws(SecretStoreError) {
        try withFileLock { () throws(SecretStoreError) in
            var secrets = try readAll()
            try change(&secrets)
            try write(secrets)
        }
    }

    /// Holds `flock` on `<keystore>.lock` around a read-modify-write.
    private func withFileLock(_ body: () throws(SecretStoreError) -> Void) throws(SecretStoreError) {
        let path = url.path + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .fileSystem(path: path, reason: "cannot open the lock file") }
        defer { close(descriptor) }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX) } while result != 0 && errno == EINTR
        guard result == 0 else { throw .fileSystem(path: path, reason: "cannot lock the file") }
        defer { _ = flock(descriptor, LOCK_UN) }
        try body()
    }

    private static func deriveKey(_ passphrase: String, salt: [UInt8], cost: Cost) throws(SecretStoreError)
        -> SymmetricKey
    {
        let password = Array(passphrase.precomposedStringWithCanonicalMapping.utf8)
        do {
            return try KDF.Scrypt.deriveKey(
                from: password, salt: salt, outputByteCount: 32, rounds: cost.n, blockSize: cost.r,
                parallelism: cost.p)
        } catch {
            throw .damaged(path: "scrypt", reason: "key derivation failed")
        }
    }

    private static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
