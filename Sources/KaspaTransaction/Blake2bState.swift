#if canImport(Darwin)
    import Blake2
#else
    import CBlake2
#endif

/// A keyed BLAKE2b-256 state: Debian's libb2 on Linux; on Apple platforms, which have no
/// pkg-config, the reference C built from source by tesseract-one/Blake2.swift (docs/ARCHITECTURE.md
/// "Apple platforms": not built here, so unverified). Both take keys of 1...64 bytes, which Kaspa's
/// 13-byte "TransactionID" needs.
struct Blake2bState {
    #if canImport(Darwin)
        private var hasher: Blake2b

        /// `key` is one of Kaspa's domain names (13...22 bytes): always in BLAKE2b's range.
        init(key: [UInt8]) {
            guard let hasher = key.withUnsafeBytes({ Blake2b(size: 32, key: $0) }) else {
                preconditionFailure("BLAKE2b-256 refused a \(key.count)-byte key")
            }
            self.hasher = hasher
        }

        mutating func update(_ buffer: UnsafeRawBufferPointer) {
            _ = hasher.update(from: buffer)
        }

        mutating func finalize() -> [UInt8] {
            var out = [UInt8](repeating: 0, count: 32)
            out.withUnsafeMutableBytes { _ = hasher.finalize(out: $0) }
            return out
        }
    #else
        private var state = blake2b_state()

        /// `key` is one of Kaspa's domain names (13...22 bytes): always in libb2's accepted range.
        init(key: [UInt8]) {
            _ = blake2b_init_key(&state, 32, key, key.count)
        }

        mutating func update(_ buffer: UnsafeRawBufferPointer) {
            _ = blake2b_update(&state, buffer.baseAddress, buffer.count)
        }

        mutating func finalize() -> [UInt8] {
            var out = [UInt8](repeating: 0, count: 32)
            _ = blake2b_final(&state, &out, 32)
            return out
        }
    #endif
}
