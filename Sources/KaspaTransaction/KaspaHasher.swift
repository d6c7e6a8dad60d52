/// The domains Kaspa keys BLAKE2b-256 with: each hash family uses its name as the BLAKE2 key,
/// so a digest of one kind can never stand for another (rusty-kaspa `crypto/hashes`).
public enum KaspaHashDomain: String, Sendable, CaseIterable {
    /// Transaction id: the transaction without signature scripts.
    case transactionID = "TransactionID"
    /// Transaction hash: the full transaction, signatures included.
    case transactionHash = "TransactionHash"
    /// Every part of a signature hash (kasia-protocol §12: "keyed with TransactionSigningHash").
    case transactionSigning = "TransactionSigningHash"
}

/// Keyed BLAKE2b-256 with Kaspa's little-endian field writers (``Blake2bState``: Debian's libb2 on Linux).
///
/// libsodium's `crypto_generichash` refuses keys shorter than 16 bytes, and "TransactionID" has
/// 13; BLAKE2's own keyed init takes any key of 1...64 bytes, which is what Kaspa needs.
/// The keyed start state of each domain is made once and copied, so a hash costs only its data.
public struct KaspaHasher {
    private var state: Blake2bState

    /// The keyed initial state of each domain, built once per process.
    private static let transactionIDState = keyedState(.transactionID)
    private static let transactionHashState = keyedState(.transactionHash)
    private static let transactionSigningState = keyedState(.transactionSigning)

    private static func keyedState(_ domain: KaspaHashDomain) -> Blake2bState {
        Blake2bState(key: Array(domain.rawValue.utf8))
    }

    public init(domain: KaspaHashDomain) {
        switch domain {
        case .transactionID: state = Self.transactionIDState
        case .transactionHash: state = Self.transactionHashState
        case .transactionSigning: state = Self.transactionSigningState
        }
    }

    @discardableResult
    public mutating func update(_ bytes: some Collection<UInt8>) -> Self {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            state.update(UnsafeRawBufferPointer(buffer))
        }
        if done == nil {
            Array(bytes).withUnsafeBytes { state.update($0) }
        }
        return self
    }

    public mutating func write(_ value: UInt8) { update(CollectionOfOne(value)) }

    public mutating func write(_ value: UInt16) { writeLittleEndian(value) }

    public mutating func write(_ value: UInt32) { writeLittleEndian(value) }

    public mutating func write(_ value: UInt64) { writeLittleEndian(value) }

    /// A u64 length and then the bytes: Kaspa's `write_var_bytes`.
    public mutating func writeVarBytes(_ bytes: [UInt8]) {
        write(UInt64(bytes.count))
        update(bytes)
    }

    private mutating func writeLittleEndian<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { state.update($0) }
    }

    /// The 32-byte digest. Consumes this hasher's state (copy first to keep going).
    public mutating func finalize() -> [UInt8] {
        state.finalize()
    }

    /// One-shot digest of `bytes` in `domain`.
    public static func hash(_ bytes: [UInt8], domain: KaspaHashDomain) -> [UInt8] {
        var hasher = KaspaHasher(domain: domain)
        hasher.update(bytes)
        return hasher.finalize()
    }
}
