public import KaspaCrypto

/// One address's balance in a `getBalancesByAddresses` answer; `balance` may be null
/// (kaspa-node.md §4).
public struct RPCBalancesByAddressesEntry: Sendable, Hashable, Codable {
    public var address: KaspaAddress
    public var balance: UInt64?

    public init(address: KaspaAddress, balance: UInt64?) {
        self.address = address
        self.balance = balance
    }

    private enum CodingKeys: String, CodingKey { case address, balance }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(address, forKey: .address)
        try container.encode(balance, forKey: .balance)
    }
}

/// `{entries}`: the answer of `getBalancesByAddresses`.
public struct RPCBalancesByAddresses: Sendable, Hashable, Codable {
    public var entries: [RPCBalancesByAddressesEntry]
    public init(entries: [RPCBalancesByAddressesEntry]) { self.entries = entries }
}
