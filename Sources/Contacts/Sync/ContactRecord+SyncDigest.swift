import Crypto
import Foundation
import TandemBasics

extension ContactRecord {
    /// SHA-256 of the record's sync plaintext (sorted-key JSON, DocC "Record format"), in hex:
    /// equal digests mean equal records. The sync engine remembers the digest of what the
    /// server holds, so it pushes only records that changed since (issue 12 item 3); the box
    /// itself cannot serve, since every seal draws a fresh nonce.
    public var syncDigest: String {
        let plaintext = (try? ContactRecordWire(self).plaintext()) ?? Data()
        return Hex.encode(Array(SHA256.hash(data: plaintext)))
    }
}
