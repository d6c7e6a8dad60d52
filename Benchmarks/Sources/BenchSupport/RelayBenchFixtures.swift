package import Foundation
package import KasiaProtocol
package import KaspaCrypto
package import TandemAPI
import TandemBasics

/// Real signed submissions for the relay bench: contextual messages (kasia-protocol §4) whose
/// sealed part is shaped like a cipher output, signed with BIP-340 by
/// `RelaySubmission.signed`, the same code a client runs. Each has its own nonce, so each is
/// a distinct transaction (issue 11 item 1) and no request is answered from an existing row.
package enum RelayBenchFixtures {
    package static func key(_ seed: UInt8) throws -> PrivateKey {
        try PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 31) + [seed])
    }

    /// The `index`-th alias of the bench: 12 hex characters, distinct per index.
    package static func alias(_ index: Int) throws -> Alias {
        try Alias(String(0xa0_0000_0000 + index, radix: 16).leftPadded(to: 12))
    }

    /// 77 bytes shaped like a sealed message (nonce, 02-prefixed key, ciphertext, tag); the
    /// relay never opens it.
    package static func sealed(_ seed: Int) -> [UInt8] {
        (0..<77).map { index in index == 12 ? 0x02 : UInt8(truncatingIfNeeded: seed &* 31 &+ index &* 7) }
    }

    package static func message(alias: Alias, seed: Int) -> [UInt8] {
        KasiaPayload.contextualMessage(alias: alias, sealed: sealed(seed), encoding: .base64).encoded(root: .ciphMsg)
    }

    package static func submission(key: PrivateKey, alias: Alias, nonce: UInt64) throws -> RelaySubmission {
        try RelaySubmission.signed(payload: message(alias: alias, seed: Int(nonce % 251)), by: key, nonce: nonce)
    }

    /// `count` JSON bodies for `POST /kasia/transactions`, nonces `firstNonce…`.
    package static func bodies(count: Int, key: PrivateKey, alias: Alias, firstNonce: UInt64) throws -> [[UInt8]] {
        let encoder = JSONEncoder()
        return try (0..<count).map { offset in
            Array(try encoder.encode(try submission(key: key, alias: alias, nonce: firstNonce + UInt64(offset))))
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
