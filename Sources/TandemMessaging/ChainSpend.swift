public import ChatHistory

/// One transaction a messaging call paid for on the Kaspa network (issue 51 item 3): a person is
/// told what each send cost. A relay pays nothing, so its calls have none.
public struct ChainSpend: Sendable, Equatable {
    /// Why the transaction was made.
    public enum Purpose: String, Sendable {
        /// A handshake: 0.2 KAS to the peer (kasia-protocol §12).
        case handshake
        /// The handshake's copy for our other devices (`self_stash:saved_handshake`), to ourselves.
        case savedHandshake = "saved-handshake"
        /// A message, to ourselves.
        case message
        /// A payment in chat, to the peer.
        case payment
    }

    public var purpose: Purpose
    public var transactionID: String
    /// Paid to another address, in sompi (0 for a self-spend).
    public var amountSompi: UInt64
    /// Paid to the network, in sompi.
    public var feeSompi: UInt64

    public init(purpose: Purpose, transactionID: String, amountSompi: UInt64, feeSompi: UInt64) {
        self.purpose = purpose
        self.transactionID = transactionID
        self.amountSompi = amountSompi
        self.feeSompi = feeSompi
    }

    /// The spend a receipt reports; nil when it paid nothing (a relay's).
    init?(_ purpose: Purpose, _ receipt: SubmissionReceipt) {
        guard let fee = receipt.fee else { return nil }
        self.init(purpose: purpose, transactionID: receipt.txID, amountSompi: receipt.amountSompi ?? 0, feeSompi: fee)
    }
}

extension Array where Element == ChainSpend {
    /// Every fee, in sompi.
    public var totalFeeSompi: UInt64 { reduce(0) { $0 &+ $1.feeSompi } }
    /// Everything paid to other addresses, in sompi.
    public var totalAmountSompi: UInt64 { reduce(0) { $0 &+ $1.amountSompi } }
}

/// A message sent, and what it cost on the Kaspa network (a handshake first, when routing
/// needed one, then the message's own transaction).
public struct MessageSent: Sendable {
    public var message: StoredMessage
    public var spends: [ChainSpend]
}

/// A conversation started: the handshake's receipt, and what it cost on the Kaspa network (the
/// handshake and its saved copy).
public struct ConversationStarted: Sendable {
    public var receipt: SubmissionReceipt
    public var spends: [ChainSpend]
}

/// What sending to a peer will cost before it is sent (issue 51 item 3), for the question a
/// person answers first. Only a Kaspa profile has one.
public struct SendQuote: Sendable, Equatable {
    /// Whether the send starts the conversation with a handshake.
    public var startsConversation: Bool
    /// Paid to the peer, in sompi: a handshake's 0.2 KAS, else 0.
    public var amountSompi: UInt64
    /// The fees of the handshake and its saved copy at the node's estimate now, in sompi
    /// (approximate: the estimate and the UTXOs may change before the send); 0 without one.
    public var handshakeFeeSompi: UInt64
    /// The message's own fee, estimated the same way; 0 for a handshake alone.
    public var messageFeeSompi: UInt64

    /// Every fee of the send.
    public var estimatedFeeSompi: UInt64 { handshakeFeeSompi &+ messageFeeSompi }
}
