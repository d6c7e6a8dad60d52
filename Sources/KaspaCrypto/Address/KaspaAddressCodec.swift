/// The Kaspa address text codec: CashAddr-style base32 with a 40-bit BCH checksum
/// (kasia-protocol §1).
enum KaspaAddressCodec {
    static let charset: [UInt8] = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)

    /// Maps an ASCII byte to its 5-bit value, or 0xff. Lowercase only: the rusty-kaspa SDK
    /// rejects any uppercase, and so do we.
    static let reverseCharset: [UInt8] = {
        var table = [UInt8](repeating: 0xff, count: 128)
        for (value, char) in charset.enumerated() { table[Int(char)] = UInt8(value) }
        return table
    }()

    private static let checksumLength = 8

    static func encode(_ address: KaspaAddress) -> String {
        let prefix = address.network.addressPrefix
        let data = convertBits([address.version.rawValue] + address.payload, from: 8, to: 5, pad: true) ?? []
        let checksum = checksum(prefix: prefix, data: data)
        var out = Array(prefix.utf8)
        out.append(UInt8(ascii: ":"))
        for value in data + checksum { out.append(charset[Int(value)]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) throws(KaspaAddressError) -> KaspaAddress {
        var text = text
        let result = text.withUTF8 { utf8 in
            Result { () throws(KaspaAddressError) -> KaspaAddress in try decode(utf8: utf8) }
        }
        return try result.get()
    }

    /// Decodes ASCII bytes; works on bytes, not `Character`s, because this runs for every
    /// contact of a migration and every address a server receives.
    static func decode(utf8: UnsafeBufferPointer<UInt8>) throws(KaspaAddressError) -> KaspaAddress {
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { throw .missingPrefix }
        let prefix = String(decoding: utf8[..<colon], as: UTF8.self)
        guard let network = KaspaNetwork(addressPrefix: prefix) else { throw .unknownPrefix(prefix) }
        var values: [UInt8] = []
        values.reserveCapacity(utf8.count - colon)
        for index in (colon + 1)..<utf8.count {
            let byte = utf8[index]
            guard byte < 128, reverseCharset[Int(byte)] != 0xff else {
                // Name the whole character, even when the byte starts a multi-byte one.
                let rest = String(decoding: utf8[index...], as: UTF8.self)
                throw .invalidCharacter(rest.first ?? "?")
            }
            values.append(reverseCharset[Int(byte)])
        }
        guard values.count > checksumLength else { throw .tooShort }
        guard polymod(prefix: network.addressPrefix, values: values) == 0 else { throw .checksumMismatch }
        let data = values.dropLast(checksumLength)
        guard let bytes = convertBits(Array(data), from: 5, to: 8, pad: false) else { throw .nonZeroPadding }
        guard let versionByte = bytes.first else { throw .tooShort }
        guard let version = KaspaAddressVersion(rawValue: versionByte) else { throw .unknownVersion(versionByte) }
        return try KaspaAddress(network: network, version: version, payload: Array(bytes.dropFirst()))
    }

    /// The 8 checksum symbols for `prefix` and 5-bit `data`.
    static func checksum(prefix: String, data: [UInt8]) -> [UInt8] {
        let mod = polymod(prefix: prefix, values: data + [UInt8](repeating: 0, count: checksumLength))
        return (0..<checksumLength).map { i in UInt8((mod >> (5 * UInt64(checksumLength - 1 - i))) & 0x1f) }
    }

    /// The BCH polymod over the prefix expansion (low 5 bits of each character, then 0) and
    /// `values`, XOR 1 — so a valid address with its checksum yields 0.
    static func polymod(prefix: String, values: [UInt8]) -> UInt64 {
        var c: UInt64 = 1
        for char in prefix.utf8 { c = step(c, char & 0x1f) }
        c = step(c, 0)
        for value in values { c = step(c, value) }
        return c ^ 1
    }

    @inline(__always)
    private static func step(_ c: UInt64, _ value: UInt8) -> UInt64 {
        let top = c >> 35
        var next = ((c & 0x07_ffff_ffff) << 5) ^ UInt64(value)
        if top & 0x01 != 0 { next ^= 0x98_f2bc_8e61 }
        if top & 0x02 != 0 { next ^= 0x79_b76d_99e2 }
        if top & 0x04 != 0 { next ^= 0xf3_3e5f_b3c4 }
        if top & 0x08 != 0 { next ^= 0xae_2eab_e2a8 }
        if top & 0x10 != 0 { next ^= 0x1e_4f43_e470 }
        return next
    }

    /// Regroups bits. With `pad`, zero bits complete the last group; without, leftover bits
    /// must be fewer than `from` and all zero, else `nil`.
    static func convertBits(_ input: [UInt8], from: Int, to: Int, pad: Bool) -> [UInt8]? {
        var accumulator = 0
        var bits = 0
        var out: [UInt8] = []
        out.reserveCapacity(input.count * from / to + 1)
        let maxValue = (1 << to) - 1
        for value in input {
            accumulator = (accumulator << from) | Int(value)
            bits += from
            while bits >= to {
                bits -= to
                out.append(UInt8((accumulator >> bits) & maxValue))
            }
            accumulator &= (1 << bits) - 1
        }
        if pad {
            if bits > 0 { out.append(UInt8((accumulator << (to - bits)) & maxValue)) }
        } else if bits >= from || accumulator != 0 {
            return nil
        }
        return out
    }
}
