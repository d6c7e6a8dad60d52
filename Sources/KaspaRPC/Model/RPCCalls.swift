public import KaspaCrypto
import KaspaTransaction
import TandemBasics

/// `{}`: the params of calls that take none and the result of `ping`.
public struct RPCEmpty: Sendable, Hashable, Codable {
    public init() {}
}

/// `getServerInfo`: the connect check (kaspa-node.md §4).
public struct RPCServerInfo: Sendable, Hashable, Codable {
    public var rpcApiVersion: UInt16
    public var rpcApiRevision: UInt16
    public var serverVersion: String
    public var networkId: KaspaNetworkID
    public var hasUtxoIndex: Bool
    public var isSynced: Bool
    public var virtualDaaScore: UInt64

    public init(
        rpcApiVersion: UInt16 = 1, rpcApiRevision: UInt16 = 0, serverVersion: String, networkId: KaspaNetworkID,
        hasUtxoIndex: Bool, isSynced: Bool, virtualDaaScore: UInt64
    ) {
        self.rpcApiVersion = rpcApiVersion
        self.rpcApiRevision = rpcApiRevision
        self.serverVersion = serverVersion
        self.networkId = networkId
        self.hasUtxoIndex = hasUtxoIndex
        self.isSynced = isSynced
        self.virtualDaaScore = virtualDaaScore
    }
}

/// `getBlockDagInfo`: the DAG's tips, counts and virtual DAA score.
public struct RPCBlockDAGInfo: Sendable, Hashable, Codable {
    public var network: KaspaNetworkID
    public var blockCount: UInt64
    public var headerCount: UInt64
    public var tipHashes: [String]
    public var difficulty: Double
    public var pastMedianTime: UInt64
    public var virtualParentHashes: [String]
    public var pruningPointHash: String
    public var virtualDaaScore: UInt64
    public var sink: String

    public init(
        network: KaspaNetworkID, blockCount: UInt64, headerCount: UInt64, tipHashes: [String], difficulty: Double,
        pastMedianTime: UInt64, virtualParentHashes: [String], pruningPointHash: String, virtualDaaScore: UInt64,
        sink: String
    ) {
        self.network = network
        self.blockCount = blockCount
        self.headerCount = headerCount
        self.tipHashes = tipHashes
        self.difficulty = difficulty
        self.pastMedianTime = pastMedianTime
        self.virtualParentHashes = virtualParentHashes
        self.pruningPointHash = pruningPointHash
        self.virtualDaaScore = virtualDaaScore
        self.sink = sink
    }
}

/// `{addresses: [...]}`: the params of `getUtxosByAddresses`.
public struct RPCAddresses: Sendable, Hashable, Codable {
    public var addresses: [KaspaAddress]
    public init(addresses: [KaspaAddress]) { self.addresses = addresses }
}

/// `{entries: [...]}`: the answer of `getUtxosByAddresses` (accepted UTXOs only).
public struct RPCUtxosByAddresses: Sendable, Hashable, Codable {
    public var entries: [RPCUtxosByAddressesEntry]
    public init(entries: [RPCUtxosByAddressesEntry]) { self.entries = entries }
}

/// `{address}`: the params of `getBalanceByAddress`.
public struct RPCAddress: Sendable, Hashable, Codable {
    public var address: KaspaAddress
    public init(address: KaspaAddress) { self.address = address }
}

/// `{balance}` in sompi.
public struct RPCBalance: Sendable, Hashable, Codable {
    public var balance: UInt64
    public init(balance: UInt64) { self.balance = balance }
}

/// `submitTransaction`'s params. `allowOrphan` is honoured only by `--unsaferpc` nodes.
public struct RPCSubmitTransaction: Sendable, Hashable, Codable {
    public var transaction: RPCTransaction
    public var allowOrphan: Bool

    public init(transaction: RPCTransaction, allowOrphan: Bool = false) {
        self.transaction = transaction
        self.allowOrphan = allowOrphan
    }

    private enum CodingKeys: String, CodingKey { case transaction, allowOrphan }

    /// A node decodes a submission as a whole transaction: a `null` payload, outpoint, sequence or
    /// sig-op count (members only the chain walk's lower levels leave out) is refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        transaction = try container.decode(RPCTransaction.self, forKey: .transaction)
        allowOrphan = try container.decodeIfPresent(Bool.self, forKey: .allowOrphan) ?? false
        do { _ = try transaction.kaspaTransaction { _ in nil } } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .transaction, in: container, debugDescription: "transaction.\(error.description)")
        }
    }
}

/// `{transactionId}`: the node's id of what it accepted.
public struct RPCTransactionID: Sendable, Hashable, Codable {
    public var transactionId: [UInt8]

    public init(transactionId: [UInt8]) { self.transactionId = transactionId }

    private enum CodingKeys: String, CodingKey { case transactionId }

    public init(from decoder: any Decoder) throws {
        transactionId = try KaspaJSONHex.decodeHash(decoder.container(keyedBy: CodingKeys.self), .transactionId)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Hex.encode(transactionId), forKey: .transactionId)
    }
}

/// `getFeeEstimate`: feerates in sompi per gram (floats), never below the relay floor.
public struct RPCFeeEstimateResponse: Sendable, Hashable, Codable {
    public var estimate: RPCFeeEstimate
    public init(estimate: RPCFeeEstimate) { self.estimate = estimate }
}

public struct RPCFeeEstimate: Sendable, Hashable, Codable {
    public var priorityBucket: RPCFeerateBucket
    public var normalBuckets: [RPCFeerateBucket]
    public var lowBuckets: [RPCFeerateBucket]

    public init(priorityBucket: RPCFeerateBucket, normalBuckets: [RPCFeerateBucket], lowBuckets: [RPCFeerateBucket]) {
        self.priorityBucket = priorityBucket
        self.normalBuckets = normalBuckets
        self.lowBuckets = lowBuckets
    }
}

public struct RPCFeerateBucket: Sendable, Hashable, Codable {
    public var feerate: Double
    public var estimatedSeconds: Double

    public init(feerate: Double, estimatedSeconds: Double) {
        self.feerate = feerate
        self.estimatedSeconds = estimatedSeconds
    }
}

/// `getMempoolEntry`'s params. Filtering the transaction pool requires including orphans.
public struct RPCMempoolEntryQuery: Sendable, Hashable, Codable {
    public var transactionId: String
    public var includeOrphanPool: Bool
    public var filterTransactionPool: Bool

    public init(transactionId: [UInt8], includeOrphanPool: Bool = false, filterTransactionPool: Bool = false) {
        self.transactionId = Hex.encode(transactionId)
        self.includeOrphanPool = includeOrphanPool
        self.filterTransactionPool = filterTransactionPool
    }
}

/// `getMempoolEntriesByAddresses`'s params.
public struct RPCMempoolEntriesQuery: Sendable, Hashable, Codable {
    public var addresses: [KaspaAddress]
    public var includeOrphanPool: Bool
    public var filterTransactionPool: Bool

    public init(addresses: [KaspaAddress], includeOrphanPool: Bool = false, filterTransactionPool: Bool = false) {
        self.addresses = addresses
        self.includeOrphanPool = includeOrphanPool
        self.filterTransactionPool = filterTransactionPool
    }
}

/// A mempool transaction with its fee (`RpcMempoolEntry`; `is_orphan` is snake_case on the wire).
public struct RPCMempoolEntry: Sendable, Hashable, Codable {
    public var fee: UInt64
    public var transaction: RPCTransaction
    public var isOrphan: Bool

    public init(fee: UInt64, transaction: RPCTransaction, isOrphan: Bool = false) {
        self.fee = fee
        self.transaction = transaction
        self.isOrphan = isOrphan
    }

    private enum CodingKeys: String, CodingKey {
        case fee, transaction
        case isOrphan = "is_orphan"
    }
}

/// `{mempoolEntry}`: the answer of `getMempoolEntry`.
public struct RPCMempoolEntryResponse: Sendable, Hashable, Codable {
    public var mempoolEntry: RPCMempoolEntry
    public init(mempoolEntry: RPCMempoolEntry) { self.mempoolEntry = mempoolEntry }
}

/// One address's mempool transactions: those spending its UTXOs and those paying it.
public struct RPCMempoolEntriesByAddress: Sendable, Hashable, Codable {
    public var address: KaspaAddress
    public var sending: [RPCMempoolEntry]
    public var receiving: [RPCMempoolEntry]

    public init(address: KaspaAddress, sending: [RPCMempoolEntry], receiving: [RPCMempoolEntry]) {
        self.address = address
        self.sending = sending
        self.receiving = receiving
    }
}

/// `{entries}`: the answer of `getMempoolEntriesByAddresses`.
public struct RPCMempoolEntriesByAddresses: Sendable, Hashable, Codable {
    public var entries: [RPCMempoolEntriesByAddress]
    public init(entries: [RPCMempoolEntriesByAddress]) { self.entries = entries }
}

/// `{id}`: a subscription's listener id, which clients ignore.
public struct RPCListenerID: Sendable, Hashable, Codable {
    public var id: UInt64
    public init(id: UInt64) { self.id = id }
}
