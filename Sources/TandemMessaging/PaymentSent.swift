public import KaspaCrypto

/// A payment in chat the node took (issue 43 item 3): its transaction, what it paid whom, the fee,
/// and the memo sealed to the payee.
public struct PaymentSent: Sendable, Equatable {
    public var transactionID: String
    public var amountSompi: UInt64
    public var fee: UInt64
    public var to: KaspaAddress
    public var memo: String

    public init(transactionID: String, amountSompi: UInt64, fee: UInt64, to: KaspaAddress, memo: String) {
        self.transactionID = transactionID
        self.amountSompi = amountSompi
        self.fee = fee
        self.to = to
        self.memo = memo
    }
}
