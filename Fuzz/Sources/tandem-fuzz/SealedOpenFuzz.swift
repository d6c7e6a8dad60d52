import KasiaProtocol
import KaspaCrypto

/// Sealed messages with a fixed recipient key (kasia-protocol §3). First byte even: the rest is
/// opened as is and must never crash. First byte odd: the rest is XORed into a message sealed
/// at start-up, and any change must fail authentication. A fixture that cannot be made stops
/// the run at its first input, so the target never passes by testing nothing.
enum SealedOpenFuzz {
    static let fixture: (key: PrivateKey, sealed: [UInt8], plaintext: String)? = {
        guard let key = try? PrivateKey(hex: String(repeating: "0", count: 63) + "1") else { return nil }
        let plaintext = "fuzz fixture"
        guard let sealed = try? KasiaCipher.seal(plaintext, to: key.publicKey) else { return nil }
        return (key, sealed, plaintext)
    }()

    /// Where the ephemeral public key starts: after the nonce (§3.6).
    static let prefixOffset = KasiaCipher.nonceLength

    static func run(_ bytes: [UInt8]) {
        guard let fixture else {
            fatalError("sealed-open: the fixture (a key and a message sealed to it) cannot be made")
        }
        guard let mode = bytes.first else { return }
        let rest = bytes.dropFirst()
        if mode & 1 == 0 {
            _ = try? KasiaCipher.open(rest, using: fixture.key)
            return
        }
        var tampered = fixture.sealed
        for (offset, mask) in rest.enumerated() where offset < tampered.count { tampered[offset] ^= mask }
        // Byte 12 is the ephemeral key's SEC1 prefix. 02 and 03 name the same x, and the shared
        // secret is that x alone (kasia-protocol §3.2), so swapping them opens by design, as
        // KasiaCipherTests.everyTamperedByteIsRejected states.
        let changed = Self.evenPrefixed(tampered) != Self.evenPrefixed(fixture.sealed)
        let opened = try? KasiaCipher.open(tampered, using: fixture.key)
        if changed {
            invariant(opened == nil, "a tampered message opened")
        } else {
            invariant(opened == fixture.plaintext, "the untouched message did not open")
        }
    }

    /// `sealed` with an 03 key prefix written as 02.
    static func evenPrefixed(_ sealed: [UInt8]) -> [UInt8] {
        var copy = sealed
        if copy.count > prefixOffset, copy[prefixOffset] == 0x03 { copy[prefixOffset] = 0x02 }
        return copy
    }
}
