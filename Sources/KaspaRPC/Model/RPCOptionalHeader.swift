import KaspaTransaction
import TandemBasics

/// A chain block's header as `getVirtualChainFromBlockV2` returns it (`RpcOptionalHeader`,
/// kaspa-node.md §5): every member present, those under the requested level `null`. `hash` comes
/// at every level; `version`, `timestamp` (ms), `bits`, `nonce`, `daaScore`, `blueWork` and
/// `blueScore` from Low; `parentsByLevel`, `hashMerkleRoot` and `acceptedIdMerkleRoot` from High;
/// `utxoCommitment` and `pruningPoint` at Full.
public struct RPCOptionalHeader: Sendable, Hashable, Codable {
    public var hash: [UInt8]?
    public var version: UInt16?
    public var parentsByLevel: [RPCParentLevelRun]?
    public var hashMerkleRoot: [UInt8]?
    public var acceptedIdMerkleRoot: [UInt8]?
    public var utxoCommitment: [UInt8]?
    public var timestamp: UInt64?
    public var bits: UInt32?
    public var nonce: UInt64?
    public var daaScore: UInt64?
    public var blueWork: RPCBlueWork?
    public var blueScore: UInt64?
    public var pruningPoint: [UInt8]?

    public init(
        hash: [UInt8]?, version: UInt16? = nil, parentsByLevel: [RPCParentLevelRun]? = nil,
        hashMerkleRoot: [UInt8]? = nil, acceptedIdMerkleRoot: [UInt8]? = nil, utxoCommitment: [UInt8]? = nil,
        timestamp: UInt64? = nil, bits: UInt32? = nil, nonce: UInt64? = nil, daaScore: UInt64? = nil,
        blueWork: RPCBlueWork? = nil, blueScore: UInt64? = nil, pruningPoint: [UInt8]? = nil
    ) {
        self.hash = hash
        self.version = version
        self.parentsByLevel = parentsByLevel
        self.hashMerkleRoot = hashMerkleRoot
        self.acceptedIdMerkleRoot = acceptedIdMerkleRoot
        self.utxoCommitment = utxoCommitment
        self.timestamp = timestamp
        self.bits = bits
        self.nonce = nonce
        self.daaScore = daaScore
        self.blueWork = blueWork
        self.blueScore = blueScore
        self.pruningPoint = pruningPoint
    }

    private enum CodingKeys: String, CodingKey {
        case hash, version, parentsByLevel, hashMerkleRoot, acceptedIdMerkleRoot, utxoCommitment, timestamp, bits,
            nonce, daaScore, blueWork, blueScore, pruningPoint
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        hash = try KaspaJSONHex.decodeHashIfPresent(container, .hash)
        version = try container.decodeIfPresent(UInt16.self, forKey: .version)
        parentsByLevel = try container.decodeIfPresent([RPCParentLevelRun].self, forKey: .parentsByLevel)
        hashMerkleRoot = try KaspaJSONHex.decodeHashIfPresent(container, .hashMerkleRoot)
        acceptedIdMerkleRoot = try KaspaJSONHex.decodeHashIfPresent(container, .acceptedIdMerkleRoot)
        utxoCommitment = try KaspaJSONHex.decodeHashIfPresent(container, .utxoCommitment)
        timestamp = try container.decodeIfPresent(UInt64.self, forKey: .timestamp)
        bits = try container.decodeIfPresent(UInt32.self, forKey: .bits)
        nonce = try container.decodeIfPresent(UInt64.self, forKey: .nonce)
        daaScore = try container.decodeIfPresent(UInt64.self, forKey: .daaScore)
        blueWork = try container.decodeIfPresent(RPCBlueWork.self, forKey: .blueWork)
        blueScore = try container.decodeIfPresent(UInt64.self, forKey: .blueScore)
        pruningPoint = try KaspaJSONHex.decodeHashIfPresent(container, .pruningPoint)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hash.map { Hex.encode($0) }, forKey: .hash)
        try container.encode(version, forKey: .version)
        try container.encode(parentsByLevel, forKey: .parentsByLevel)
        try container.encode(hashMerkleRoot.map { Hex.encode($0) }, forKey: .hashMerkleRoot)
        try container.encode(acceptedIdMerkleRoot.map { Hex.encode($0) }, forKey: .acceptedIdMerkleRoot)
        try container.encode(utxoCommitment.map { Hex.encode($0) }, forKey: .utxoCommitment)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(bits, forKey: .bits)
        try container.encode(nonce, forKey: .nonce)
        try container.encode(daaScore, forKey: .daaScore)
        try container.encode(blueWork, forKey: .blueWork)
        try container.encode(blueScore, forKey: .blueScore)
        try container.encode(pruningPoint.map { Hex.encode($0) }, forKey: .pruningPoint)
    }
}

/// One run of a header's compressed parents (`[cumulativeLevelCount, [hash…]]`, §5): the levels
/// from the previous run's count up to `cumulativeLevelCount` all have `parents`.
public struct RPCParentLevelRun: Sendable, Hashable, Codable {
    public var cumulativeLevelCount: UInt8
    public var parents: [[UInt8]]

    public init(cumulativeLevelCount: UInt8, parents: [[UInt8]]) {
        self.cumulativeLevelCount = cumulativeLevelCount
        self.parents = parents
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        cumulativeLevelCount = try container.decode(UInt8.self)
        let texts = try container.decode([String].self)
        parents = try texts.map { text in
            let bytes = try? Hex.decode(text)
            guard let bytes, bytes.count == 32 else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "parentsByLevel: \(text) is not a 32-byte hex hash")
            }
            return bytes
        }
        guard container.isAtEnd else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "parentsByLevel: a run is [cumulativeLevelCount, [hash…]]")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(cumulativeLevelCount)
        try container.encode(parents.map { Hex.encode($0) })
    }
}

/// A header's cumulative blue work: an unsigned integer of up to 192 bits, too wide for a JSON
/// number. rusty-kaspa writes it as 48 lowercase hex digits, zero-padded (kaspa-node.md §11); it is
/// read with or without the leading zeros, and written padded.
public struct RPCBlueWork: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Lowercase, no leading zeros, `"0"` for zero.
    public let hex: String

    public init(_ value: UInt64) { hex = String(value, radix: 16) }

    public init(hex text: String) throws(RPCDecodingError) {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0 | 0x20) })
        else {
            throw .invalid("blueWork", "\(text) is not a hex number")
        }
        let digits = text.lowercased().drop { $0 == "0" }
        guard digits.count <= 48 else { throw .invalid("blueWork", "wider than 192 bits") }
        hex = digits.isEmpty ? "0" : String(digits)
    }

    /// The value when it fits 64 bits.
    public var uint64Value: UInt64? { UInt64(hex, radix: 16) }

    public var description: String { hex }

    public init(from decoder: any Decoder) throws {
        self = try RPCBlueWork(hex: decoder.singleValueContainer().decode(String.self))
    }

    /// The node's form: 48 digits, zero-padded.
    public var paddedHex: String { String(repeating: "0", count: max(0, 48 - hex.count)) + hex }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(paddedHex)
    }
}
