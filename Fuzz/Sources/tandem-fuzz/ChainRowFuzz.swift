import Foundation
import KasiaProtocol
import KaspaCrypto
import KaspaRPC
import TandemBasics
import TandemServerStore

@testable import TandemServer

/// What the chain ingester keeps of the node's accepted transactions (issue 25 item 1):
/// ``KasiaChainRowReader``. First byte even: the rest is a payload, classified as kasia-indexer
/// classifies it. First byte odd: the rest is a `getVirtualChainFromBlockV2` answer, read and
/// walked block by block as ``KasiaChainIngester`` walks it.
///
/// A kept payload starts with a root (`ciph_msg:` or `kchat:`) and more, its stored body is the
/// payload's tail, and its tag
/// stays within the indexer's caps; a row has a 64-hex transaction id, a lowercase-hex tag, a
/// non-negative amount, a receiver only for handshakes and payments, and the payload it was read
/// from. No answer traps the reader.
enum ChainRowFuzz {
    static func run(_ bytes: [UInt8]) {
        guard let mode = bytes.first else { return }
        let rest = Array(bytes.dropFirst())
        if mode & 1 == 0 {
            checkOperation(rest)
            return
        }
        guard let page = try? JSONDecoder().decode(RPCVirtualChainFromBlockResponse.self, from: Data(rest)) else {
            return
        }
        for (hash, block) in zip(page.addedChainBlockHashes, page.chainBlockAcceptedTransactions) {
            let header = block.chainBlockHeader
            let acceptance = KasiaAcceptance(block: Hex.encode(hash), daaScore: header.daaScore ?? 0)
            for network in [KaspaNetwork.mainnet, .testnet] {
                for transaction in block.acceptedTransactions {
                    guard
                        let row = KasiaChainRowReader.row(
                            transaction, acceptance: acceptance, fallbackTime: header.timestamp ?? 0, network: network)
                    else { continue }
                    checkRow(row, transaction)
                }
            }
        }
    }

    static func checkOperation(_ payload: [UInt8]) {
        guard let (kind, tag, body) = KasiaChainRowReader.operation(payload) else { return }
        let root = KasiaRoot(startOf: payload)
        invariant(root != nil, "kept a payload under no root")
        invariant(payload.count > root?.prefix.count ?? 0, "kept a bare root")
        invariant(payload.suffix(body.count).elementsEqual(body), "the stored body is not the payload's tail")
        switch kind {
        case .contextualMessage:
            invariant(tag.count <= KasiaIndexedPayload.maximumAliasBytes, "an alias past 16 bytes")
            invariant(!tag.contains(UInt8(ascii: ":")), "an alias holds its separator")
        case .selfStash:
            invariant(tag.count <= KasiaIndexedPayload.maximumScopeBytes, "a scope past 255 bytes")
        default:
            invariant(tag.isEmpty, "a tag on a \(kind)")
        }
    }

    static func checkRow(_ row: KasiaChainRow, _ transaction: RPCTransaction) {
        let draft = row.draft
        invariant(Hex.decodeLowercase(draft.txID, byteCount: 32) != nil, "a row's tx id is not 64 lowercase hex")
        invariant(draft.payload == transaction.payload, "a row's payload is not the transaction's")
        invariant(Hex.decodeLowercase(draft.tag) != nil || draft.tag.isEmpty, "a row's tag is not lowercase hex")
        invariant(draft.amount >= 0, "a negative amount")
        invariant(
            draft.receiver == nil || draft.kind == .handshake || draft.kind == .payment,
            "a receiver on a \(draft.kind)")
        invariant(draft.payload.suffix(draft.body.count).elementsEqual(draft.body), "a row's body is not its tail")
        invariant(row.blockTime.rawValue >= 0, "a negative block time")
    }
}
