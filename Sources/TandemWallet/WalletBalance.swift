public import KaspaCrypto
public import KaspaTransaction

/// What a wallet holds, in sompi.
public struct WalletBalance: Sendable, Equatable {
    public var address: KaspaAddress
    /// Every confirmed UTXO (the node's `getBalanceByAddress`).
    public var balance: UInt64
    /// What a new transaction can spend now: mature confirmed coins not reserved, plus pending change.
    public var spendable: UInt64
    public var immature: UInt64
    public var pendingTransactions: Int
    public var virtualDaaScore: UInt64
}

/// A submitted transaction.
public struct WalletSendResult: Sendable, Equatable {
    public var transactionID: String
    public var fee: UInt64
    public var amount: UInt64
    public var recipient: KaspaAddress?
    public var change: UInt64
    public var inputs: Int
    public var transaction: KaspaTransaction
}
