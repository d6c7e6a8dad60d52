import Crypto
import Foundation
import KaspaCrypto
import TandemBasics

/// AES-256-GCM as both backup envelopes use it (KaChat's and Tandem's): a 12-byte nonce and
/// ciphertext‖tag, each in base64, and a hint of the wallet the file belongs to.
enum BackupSeal {
    static let cipherName = "aes-256-gcm"

    /// Hex of the first 8 bytes of SHA-256 of the address text.
    static func walletHint(_ address: KaspaAddress) -> String {
        Hex.encode(SHA256.hash(data: Array(address.description.utf8)).prefix(8))
    }

    /// Seals under a fresh nonce; `context` is the associated data (empty: none, as in GCM).
    static func seal(_ plaintext: Data, key: SymmetricKey, context: [UInt8] = [])
        throws -> (nonce: String, ciphertext: String)
    {
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: context)
        return (Data(box.nonce).base64EncodedString(), (box.ciphertext + box.tag).base64EncodedString())
    }

    /// Opens a sealed file's contents. A key that does not open them is another wallet's when
    /// the file's hint names another wallet, else the file was altered or truncated.
    static func open(
        nonce: String, ciphertext: String, key: SymmetricKey, context: [UInt8] = [], walletHint: String?,
        wallet: KaspaAddress
    ) throws(ChatBackupError) -> Data {
        guard let nonceBytes = Data(base64Encoded: nonce), nonceBytes.count == 12 else {
            throw .damaged("the nonce is not 12 bytes of base64")
        }
        guard let sealed = Data(base64Encoded: ciphertext), sealed.count >= 16 else {
            throw .damaged("the ciphertext is not base64 of at least a 16-byte tag")
        }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: nonceBytes), ciphertext: sealed.dropLast(16), tag: sealed.suffix(16))
            return try AES.GCM.open(box, using: key, authenticating: context)
        } catch {
            if let walletHint, walletHint.lowercased() != Self.walletHint(wallet) {
                throw .wrongWallet(
                    "the backup is of another wallet (hint \(walletHint.prefix(16)), this wallet's is "
                        + "\(Self.walletHint(wallet))): it does not open with this profile's key")
            }
            throw .damaged("it does not open with this wallet's key (altered or truncated)")
        }
    }
}
