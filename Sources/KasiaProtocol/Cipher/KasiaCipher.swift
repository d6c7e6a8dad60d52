import Crypto
import Foundation
public import KaspaCrypto
import TandemBasics

/// The Kasia message cipher (kasia-protocol §3): ECDH with a fresh ephemeral key, the raw shared
/// x through HKDF-SHA256 (no salt, empty info), then ChaCha20-Poly1305 without AAD.
///
/// Sealed layout: `nonce(12) ‖ ephemeral compressed key(33) ‖ ciphertext ‖ tag(16)`.
///
/// One bit of that layout is not authenticated: the ephemeral key's parity prefix (02/03).
/// Both parities name the same x and every secret derives from x alone, so a flipped prefix
/// opens to the same text. This is inherent to the wire format Kasia and KaChat share; every
/// other change to the bytes fails authentication.
public enum KasiaCipher {
    public static let nonceLength = 12
    public static let ephemeralKeyLength = 33
    public static let tagLength = 16
    /// A sealed empty message: nonce, key and tag.
    public static let minimumSealedLength = nonceLength + ephemeralKeyLength + tagLength

    /// Encrypts UTF-8 `plaintext` to `recipient` with a fresh ephemeral key and nonce.
    public static func seal(_ plaintext: String, to recipient: PublicKey) throws(KasiaCipherError) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let nonce = (0..<nonceLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return try seal(Array(plaintext.utf8), to: recipient, ephemeralKey: PrivateKey.generate(), nonce: nonce)
    }

    /// Encrypts to the key behind a Kaspa address (v0 lifted to even y, v1 as given; v8 refused).
    public static func seal(_ plaintext: String, to recipient: KaspaAddress) throws(KasiaCipherError) -> [UInt8] {
        let key: PublicKey
        do { key = try recipient.publicKey() } catch { throw .invalidRecipient(error) }
        return try seal(plaintext, to: key)
    }

    /// The seam for vectors: sealing with a fixed ephemeral key and nonce. Never reuse a nonce
    /// with the same ephemeral key in production; `seal(_:to:)` draws both fresh.
    static func seal(
        _ plaintext: [UInt8], to recipient: PublicKey, ephemeralKey: PrivateKey, nonce: [UInt8]
    ) throws(KasiaCipherError) -> [UInt8] {
        guard nonce.count == nonceLength else { throw .nonceLength(nonce.count) }
        let key = try messageKey(ephemeralKey, recipient)
        let box: ChaChaPoly.SealedBox
        do {
            box = try ChaChaPoly.seal(plaintext, using: key, nonce: ChaChaPoly.Nonce(data: nonce))
        } catch {
            // Only reachable with a malformed nonce, which the guard above excludes.
            throw .nonceLength(nonce.count)
        }
        var sealed = nonce
        sealed.reserveCapacity(minimumSealedLength + plaintext.count)
        sealed += ephemeralKey.publicKey.compressedRepresentation
        sealed += box.ciphertext
        sealed += box.tag
        return sealed
    }

    /// Decrypts a sealed message with the recipient's private key and returns its text.
    public static func open(_ sealed: some Collection<UInt8>, using privateKey: PrivateKey) throws(KasiaCipherError)
        -> String
    {
        let sealed = Array(sealed)
        guard sealed.count >= minimumSealedLength else { throw .sealedMessageTooShort(sealed.count) }
        let prefix = sealed[nonceLength]
        guard prefix == 0x02 || prefix == 0x03 else { throw .ephemeralKeyNotCompressed(prefix: prefix) }
        let ephemeral: PublicKey
        do {
            ephemeral = try PublicKey(
                compressedRepresentation: sealed[nonceLength..<(nonceLength + ephemeralKeyLength)])
        } catch {
            throw .ephemeralKeyNotOnCurve
        }
        let key = try messageKey(privateKey, ephemeral)
        let bodyStart = nonceLength + ephemeralKeyLength
        let tagStart = sealed.count - tagLength
        let plaintext: Data
        do {
            let box = try ChaChaPoly.SealedBox(
                nonce: ChaChaPoly.Nonce(data: sealed[0..<nonceLength]),
                ciphertext: sealed[bodyStart..<tagStart],
                tag: sealed[tagStart...]
            )
            plaintext = try ChaChaPoly.open(box, using: key)
        } catch {
            throw .authenticationFailed
        }
        guard let text = String(strictUTF8: plaintext) else { throw .plaintextNotUTF8 }
        return text
    }

    /// HKDF-SHA256(salt: none, ikm: raw ECDH x, info: empty, 32 bytes).
    static func messageKey(_ privateKey: PrivateKey, _ publicKey: PublicKey) throws(KasiaCipherError) -> SymmetricKey {
        let shared: ECDHSecret
        do { shared = try privateKey.sharedSecretFromKeyAgreement(with: publicKey) } catch { throw .key(error) }
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: shared.rawRepresentation),
            info: [UInt8](),
            outputByteCount: 32
        )
    }
}
