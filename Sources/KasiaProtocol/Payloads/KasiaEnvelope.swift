import TandemBasics

/// A Kasia payload with the root that carries it (kasia-protocol §16): what a transaction's
/// `payload` field holds. Parsing reads both roots; encoding writes ``root`` followed by the
/// payload's bytes, which do not depend on the root.
public struct KasiaEnvelope: Sendable, Equatable {
    public var root: KasiaRoot
    public var payload: KasiaPayload

    public init(_ payload: KasiaPayload, root: KasiaRoot) {
        self.payload = payload
        self.root = root
    }

    /// Parses the bytes of a transaction's `payload` field under either root.
    public init(parsing bytes: some Collection<UInt8>) throws(KasiaPayloadError) {
        let bytes = Array(bytes)
        guard let root = KasiaRoot(startOf: bytes) else { throw .notKasiaPayload }
        self.root = root
        self.payload = try KasiaPayload(parsingAfterRoot: bytes[root.prefix.count...])
    }

    /// Parses lowercase or uppercase hex text of a payload (what indexers and explorers show).
    public init(parsingHex hex: some StringProtocol) throws(KasiaPayloadError) {
        guard let bytes = try? Hex.decode(hex) else { throw .notKasiaPayload }
        try self.init(parsing: bytes)
    }

    /// The bytes on chain.
    public var encoded: [UInt8] { payload.encoded(root: root) }
}
