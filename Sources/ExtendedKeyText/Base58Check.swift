import Crypto

/// Base58Check (Bitcoin's alphabet, a 4-byte double-SHA-256 checksum): the text form of
/// BIP-32 extended keys.
enum Base58Check {
    private static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)
    private static let values: [UInt8: Int] = Dictionary(
        uniqueKeysWithValues: alphabet.enumerated().map { ($1, $0) })

    static func encode(_ payload: [UInt8]) -> String {
        let bytes = payload + checksum(payload)
        var digits: [Int] = []  // base 58, least significant first
        for byte in bytes {
            var carry = Int(byte)
            for position in digits.indices {
                carry += digits[position] << 8
                digits[position] = carry % 58
                carry /= 58
            }
            while carry > 0 {
                digits.append(carry % 58)
                carry /= 58
            }
        }
        let zeros = bytes.prefix(while: { $0 == 0 }).count
        let text = [UInt8](repeating: alphabet[0], count: zeros) + digits.reversed().map { alphabet[$0] }
        return String(decoding: text, as: UTF8.self)
    }

    static func decode(_ text: some StringProtocol) throws(ExtendedKeyTextError) -> [UInt8] {
        var bytes: [Int] = []  // base 256, least significant first
        let characters = Array(text.utf8)
        guard characters.count <= 200 else { throw .notBase58 }
        for character in characters {
            guard var carry = values[character] else { throw .notBase58 }
            for position in bytes.indices {
                carry += bytes[position] * 58
                bytes[position] = carry & 0xFF
                carry >>= 8
            }
            while carry > 0 {
                bytes.append(carry & 0xFF)
                carry >>= 8
            }
        }
        let zeros = characters.prefix(while: { $0 == alphabet[0] }).count
        let decoded = [UInt8](repeating: 0, count: zeros) + bytes.reversed().map { UInt8($0) }
        guard decoded.count >= 4 else { throw .checksum }
        let payload = Array(decoded.dropLast(4))
        guard checksum(payload) == Array(decoded.suffix(4)) else { throw .checksum }
        return payload
    }

    private static func checksum(_ payload: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: Array(SHA256.hash(data: payload))).prefix(4))
    }
}
