/// Bytes from the operating system's CSPRNG.
///
/// `SystemRandomNumberGenerator` reads `getrandom(2)` on Linux and `arc4random_buf` on Apple
/// platforms; both are cryptographically secure.
enum SecureRandom {
    /// Eight bytes per draw: each draw is a system call, and a BIP-340 signature's 32 bytes of
    /// auxiliary randomness drawn byte by byte cost a third of the signature (issue 15's figure).
    static func bytes(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: count)
        var index = 0
        while index < count {
            var word: UInt64 = generator.next()
            for _ in 0..<min(8, count - index) {
                bytes[index] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                index += 1
            }
        }
        return bytes
    }
}
