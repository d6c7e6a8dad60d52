/// One to three random edits of a text (a byte replaced, removed or inserted from `alphabet`):
/// what the compact-wire readers' damage tests feed them, to check they decline or agree with
/// `JSONDecoder`.
enum RandomDamage {
    static func damaged(_ text: [UInt8], alphabet: [UInt8], using generator: inout some RandomNumberGenerator)
        -> [UInt8]
    {
        var bytes = text
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let at = Int.random(in: 0...bytes.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0 where at < bytes.count: bytes[at] = alphabet.randomElement(using: &generator) ?? 0
            case 1 where at < bytes.count: bytes.remove(at: at)
            default: bytes.insert(alphabet.randomElement(using: &generator) ?? 0, at: at)
            }
        }
        return bytes
    }
}
