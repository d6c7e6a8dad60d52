import KasiaProtocol
public import KaspaCrypto
import KaspaRPC
import KaspaTransaction

extension KasiaIndexEntry {
    static let magic = Array("ciph_msg:".utf8)
    static let versioned = Array("ciph_msg:1:".utf8)
    static let commPrefix = Array("ciph_msg:1:comm:".utf8)

    /// The entry kasia-indexer keeps for `accepted`, which `block` included and accepted, or nil
    /// when it keeps none: a payload it does not index (``indexed(_:)``), or a handshake or
    /// payment without a first output to key it by. Addresses are written for `network`.
    public init?(_ accepted: SimulatedBlock.AcceptedTransaction, in block: SimulatedBlock, network: KaspaNetwork) {
        let transaction = accepted.transaction
        guard let payload = transaction.payload, let (operation, body) = Self.indexed(payload) else { return nil }
        let firstOutput = transaction.outputs.first
        let receiver = firstOutput?.scriptPublicKey.value.address(network: network)
        switch operation {
        case .handshake, .payment: guard receiver != nil else { return nil }
        case .contextualMessage, .selfStash: break
        }
        // The sender owns the output the first input spends (kaspa-node.md §5).
        let spent = transaction.inputs.first.flatMap { input in
            accepted.spent.first { $0.outpoint == input.previousOutpoint }
        }
        self.init(
            operation: operation, txID: accepted.id, sender: spent?.scriptPublicKey.address(network: network),
            receiver: receiver, amount: firstOutput?.value, blockTime: UInt64(max(block.time.rawValue, 0)),
            acceptingBlock: block.hash, acceptingDaaScore: block.daaScore, body: body)
    }

    /// How kasia-indexer reads a transaction payload (kasia-protocol §4 notes): after
    /// `ciph_msg:`, no `1:` is a legacy handshake or message stored whole (KaChat's unversioned
    /// `pay:` included: the indexer does not tell it apart); otherwise `KasiaPayload`'s parser
    /// names the operation and `indexerStoredBody` the stored body. Not indexed: KaChat's `pay:`
    /// (only the vsmirn0v fork indexes it), broadcasts, group operations, unknown operations, and
    /// payloads the parser refuses.
    ///
    /// Where this differs from the indexer, which stores the raw bytes after the prefix without
    /// checking them: it skips a `comm` whose alias is not 12 hex characters, and any body that is
    /// empty or undecodable; it stores a handshake or self-stash body written as hex text
    /// decoded, and a hex `comm` body in lower case. Tandem and KaChat write none of these.
    public static func indexed(_ payload: [UInt8]) -> (operation: Operation, body: [UInt8])? {
        guard payload.starts(with: magic), payload.count > magic.count else { return nil }
        guard payload.starts(with: versioned) else { return (.handshake, Array(payload.dropFirst(magic.count))) }
        guard let parsed = try? KasiaPayload(parsing: payload) else { return nil }
        let body = parsed.indexerStoredBody
        switch parsed {
        case .handshake:
            return (.handshake, body)
        case .contextualMessage:
            // The alias as written: the parser folds upper case, the indexer keeps the bytes.
            let alias = payload.dropFirst(commPrefix.count).prefix { $0 != UInt8(ascii: ":") }
            return (.contextualMessage(alias: Array(alias)), body)
        case .payment(_, .web):
            return (.payment, body)
        case .selfStash(let scope, _):
            return (.selfStash(scope: Array((scope ?? "").utf8)), body)
        case .payment(_, .kachat), .payment(_, .unversioned), .broadcast, .legacy:
            return nil
        }
    }
}
