import TandemBasics

/// The output a transaction input spends: the id of its transaction and its index there.
public struct KaspaOutpoint: Sendable, Hashable, Codable {
    /// 32 bytes, in the order the hex shows them (Kaspa does not reverse hashes for display).
    public var transactionID: [UInt8]
    public var index: UInt32

    public init(transactionID: [UInt8], index: UInt32) {
        self.transactionID = transactionID
        self.index = index
    }

    private enum CodingKeys: String, CodingKey {
        case transactionID = "transactionId"
        case index
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        transactionID = try KaspaJSONHex.decode(container, .transactionID, count: 32)
        index = try container.decode(UInt32.self, forKey: .index)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Hex.encode(transactionID), forKey: .transactionID)
        try container.encode(index, forKey: .index)
    }
}
