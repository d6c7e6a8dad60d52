/// Bytes from the operating system's CSPRNG.
///
/// `SystemRandomNumberGenerator` reads `getrandom(2)` on Linux and `arc4random_buf` on Apple
/// platforms; both are cryptographically secure.
enum SecureRandom {
    static func bytes(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
