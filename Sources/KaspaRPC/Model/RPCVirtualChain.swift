import KaspaTransaction
import TandemBasics

/// `getVirtualChainFromBlockV2`'s params (kaspa-node.md §5): walk the virtual chain from
/// `startHash` (a chain block, or one a reorg removed), at `dataVerbosityLevel` (nil: Full),
/// leaving out the tail blocks with `minConfirmationCount` or fewer confirmations (nil: none).
/// Every member is written, nil as `null`; absent members are read as nil.
public struct RPCVirtualChainFromBlockRequest: Sendable, Hashable, Codable {
    public var startHash: [UInt8]
    public var dataVerbosityLevel: RPCDataVerbosityLevel?
    public var minConfirmationCount: UInt64?

    public init(startHash: [UInt8], dataVerbosityLevel: RPCDataVerbosityLevel?, minConfirmationCount: UInt64? = nil) {
        self.startHash = startHash
        self.dataVerbosityLevel = dataVerbosityLevel
        self.minConfirmationCount = minConfirmationCount
    }

    /// The level the node answers at: a missing level means Full.
    public var level: RPCDataVerbosityLevel { dataVerbosityLevel ?? .full }

    private enum CodingKeys: String, CodingKey { case startHash, dataVerbosityLevel, minConfirmationCount }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        startHash = try KaspaJSONHex.decodeHash(container, .startHash)
        dataVerbosityLevel = try container.decodeIfPresent(RPCDataVerbosityLevel.self, forKey: .dataVerbosityLevel)
        minConfirmationCount = try container.decodeIfPresent(UInt64.self, forKey: .minConfirmationCount)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Hex.encode(startHash), forKey: .startHash)
        try container.encode(dataVerbosityLevel, forKey: .dataVerbosityLevel)
        try container.encode(minConfirmationCount, forKey: .minConfirmationCount)
    }
}

/// `getVirtualChainFromBlockV2`'s answer (§5, §8): the chain blocks since the start that a reorg
/// removed (highest first: undo in this order), the new chain blocks (ascending), and for each
/// added block, in the same order, its header and the transactions it accepted. A client keeps
/// the last added hash as its cursor and calls again from it until `addedChainBlockHashes` is
/// empty (one answer holds a bounded number of blocks).
public struct RPCVirtualChainFromBlockResponse: Sendable, Hashable, Codable {
    public var removedChainBlockHashes: [[UInt8]]
    public var addedChainBlockHashes: [[UInt8]]
    public var chainBlockAcceptedTransactions: [RPCChainBlockAcceptedTransactions]

    public init(
        removedChainBlockHashes: [[UInt8]], addedChainBlockHashes: [[UInt8]],
        chainBlockAcceptedTransactions: [RPCChainBlockAcceptedTransactions]
    ) {
        self.removedChainBlockHashes = removedChainBlockHashes
        self.addedChainBlockHashes = addedChainBlockHashes
        self.chainBlockAcceptedTransactions = chainBlockAcceptedTransactions
    }

    private enum CodingKeys: String, CodingKey {
        case removedChainBlockHashes, addedChainBlockHashes, chainBlockAcceptedTransactions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        removedChainBlockHashes = try Self.hashes(container, .removedChainBlockHashes)
        addedChainBlockHashes = try Self.hashes(container, .addedChainBlockHashes)
        chainBlockAcceptedTransactions =
            try container.decodeIfPresent(
                [RPCChainBlockAcceptedTransactions].self, forKey: .chainBlockAcceptedTransactions) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(removedChainBlockHashes.map { Hex.encode($0) }, forKey: .removedChainBlockHashes)
        try container.encode(addedChainBlockHashes.map { Hex.encode($0) }, forKey: .addedChainBlockHashes)
        try container.encode(chainBlockAcceptedTransactions, forKey: .chainBlockAcceptedTransactions)
    }

    private static func hashes(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> [[UInt8]] {
        let texts = try container.decodeIfPresent([String].self, forKey: key) ?? []
        return try texts.map { text in
            let bytes = try? Hex.decode(text)
            guard let bytes, bytes.count == 32 else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "\(key.stringValue): \(text) is not a 32-byte hash")
            }
            return bytes
        }
    }
}

/// Only the chain blocks of a `getVirtualChainFromBlockV2` answer: what a walk reads from a page
/// it asked for at level None (kaspa-node.md §11), whose transactions carry `null` where the full
/// model wants values. The accepted transactions are not read at all.
public struct RPCVirtualChainHashes: Sendable, Hashable, Decodable {
    public var removedChainBlockHashes: [[UInt8]]
    public var addedChainBlockHashes: [[UInt8]]

    public init(removedChainBlockHashes: [[UInt8]], addedChainBlockHashes: [[UInt8]]) {
        self.removedChainBlockHashes = removedChainBlockHashes
        self.addedChainBlockHashes = addedChainBlockHashes
    }

    private enum CodingKeys: String, CodingKey {
        case removedChainBlockHashes, addedChainBlockHashes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func hashes(_ key: CodingKeys) throws -> [[UInt8]] {
            try (container.decodeIfPresent([String].self, forKey: key) ?? []).map { text in
                guard let bytes = try? Hex.decode(text), bytes.count == 32 else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container,
                        debugDescription: "\(key.stringValue): \(text) is not a 32-byte hash")
                }
                return bytes
            }
        }
        removedChainBlockHashes = try hashes(.removedChainBlockHashes)
        addedChainBlockHashes = try hashes(.addedChainBlockHashes)
    }
}

/// One added chain block's header and the transactions it accepted, each at the requested level.
/// A transaction's `verboseData.blockHash`/`blockTime` name the block that included it; this
/// header is the block that accepted it (Kasia's `accepting_block`, `accepting_daa_score`).
public struct RPCChainBlockAcceptedTransactions: Sendable, Hashable, Codable {
    public var chainBlockHeader: RPCOptionalHeader
    public var acceptedTransactions: [RPCTransaction]

    public init(chainBlockHeader: RPCOptionalHeader, acceptedTransactions: [RPCTransaction]) {
        self.chainBlockHeader = chainBlockHeader
        self.acceptedTransactions = acceptedTransactions
    }
}
