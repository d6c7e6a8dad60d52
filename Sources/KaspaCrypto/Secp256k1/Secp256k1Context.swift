#if canImport(Darwin)
    import libsecp256k1
#else
    import CSecp256k1
#endif

/// The libsecp256k1 context every key operation uses.
///
/// Since libsecp256k1 0.2 one context serves signing, verification and ECDH. It is created and
/// randomised once (blinding against side channels) and from then on only passed as
/// `const secp256k1_context *`, which the library documents as safe to share between threads.
/// That is the proof behind `@unchecked Sendable`: no code mutates the context after `init`.
final class Secp256k1Context: @unchecked Sendable {
    let pointer: OpaquePointer

    /// The process-wide context. An implementation detail like a precomputed table, not a
    /// service: it holds no state that callers can observe.
    static let shared = Secp256k1Context()

    private init() {
        // SECP256K1_CONTEXT_NONE: all capabilities are always present since 0.2.
        guard let context = secp256k1_context_create(UInt32(SECP256K1_CONTEXT_NONE)) else {
            // Only fails on allocation failure, which Swift treats as fatal everywhere else too.
            preconditionFailure("libsecp256k1 could not allocate a context")
        }
        var seed = SecureRandom.bytes(count: 32)
        _ = secp256k1_context_randomize(context, &seed)
        pointer = context
    }
}
