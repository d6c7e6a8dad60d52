public import ChatTimeline
public import KaspaCrypto

/// Something the relay delivered to this wallet, decrypted and stored: what `listen` shows.
public struct IncomingMessage: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case text
        /// A handshake: the peer asks to talk (or accepts); ``IncomingMessage/text`` is empty.
        case handshake
        /// A payment memo; ``IncomingMessage/amountSompi`` is the amount on chain, and
        /// ``IncomingMessage/verified`` says whether a chain block accepted it.
        case payment
        /// A payment stored before as unverified that a chain block has now accepted (issue 50
        /// item 7): ``IncomingMessage/id`` is its row's, and a screen redraws it in place.
        case paymentVerified
        /// A plaintext channel broadcast; ``IncomingMessage/channel`` names it.
        case broadcast
        /// A KaChat reaction that changed what a stored message shows: ``IncomingMessage/id`` is
        /// that message's, ``IncomingMessage/text`` the emoji (empty: the reaction was removed).
        case reaction
    }

    public var kind: Kind
    /// The stored row's id (a handshake's is its placeholder row, kasia-protocol §8).
    public var id: MessageID?
    public var txID: String
    public var sender: KaspaAddress
    public var text: String
    /// Relay block time in milliseconds.
    public var blockTime: UInt64
    public var amountSompi: UInt64?
    public var channel: String?
    /// For payments: whether a block the chain accepted carries it. A payment seen only through a
    /// relay or a mempool is not (its coins may not exist) and is never called paid.
    public var verified: Bool?

    public init(
        kind: Kind, id: MessageID?, txID: String, sender: KaspaAddress, text: String, blockTime: UInt64,
        amountSompi: UInt64? = nil, channel: String? = nil, verified: Bool? = nil
    ) {
        self.kind = kind
        self.id = id
        self.txID = txID
        self.sender = sender
        self.text = text
        self.blockTime = blockTime
        self.amountSompi = amountSompi
        self.channel = channel
        self.verified = verified
    }
}
