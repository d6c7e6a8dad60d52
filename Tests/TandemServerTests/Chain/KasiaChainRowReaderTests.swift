import KaspaCrypto
import KaspaRPC
import KaspaTransaction
import TandemBasics
import Testing

@testable import TandemServer
@testable import TandemServerStore

/// kasia-indexer's payload rules as the chain ingester applies them (issue 25 item 1: "a
/// malformed Kasia payload is stored or skipped exactly as kasia-indexer does").
@Suite struct KasiaChainRowReaderTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let payload: String
        /// nil: skipped.
        let expected: (kind: KasiaRecordKind, tag: String, body: String)?
        var testDescription: String { payload.count > 40 ? String(payload.prefix(40)) + "…" : payload }
    }

    static let cases: [Case] = [
        Case(payload: "hello", expected: nil),
        Case(payload: "ciph_msg:", expected: nil),
        Case(payload: "ciph_msg:sealed", expected: (.handshake, "", "sealed")),
        Case(payload: "ciph_msg:2:x", expected: (.handshake, "", "2:x")),
        Case(payload: "ciph_msg:1:", expected: nil),
        // KaChat's payments, as its indexer fork files them (issue 43 item 5).
        Case(payload: "ciph_msg:1:pay:zz", expected: (.payment, "", "zz")),
        Case(payload: "kchat:1:pay:zz", expected: (.payment, "", "zz")),
        // KaChat's root, byte for byte as ciph_msg: after it (kasia-protocol §16).
        Case(payload: "kchat:", expected: nil),
        Case(payload: "kchat:sealed", expected: (.handshake, "", "sealed")),
        Case(payload: "kchat:1:handshake:zz", expected: (.handshake, "", "zz")),
        Case(payload: "kchat:1:comm:ABC:x:y", expected: (.contextualMessage, "414243", "x:y")),
        Case(payload: "kchat:1:self_stash:sc:data:x", expected: (.selfStash, "7363", "data:x")),
        Case(payload: "kchat:1:bcast:news:hi", expected: nil),
        Case(payload: "KCHAT:1:pay:zz", expected: nil),
        Case(payload: "ciph_msg:1:bcast:news:hi", expected: nil),
        Case(payload: "ciph_msg:1:gcomm:a:b", expected: nil),
        Case(payload: "ciph_msg:1:payment:", expected: (.payment, "", "")),
        Case(payload: "ciph_msg:1:payment:not hex at all", expected: (.payment, "", "not hex at all")),
        Case(payload: "ciph_msg:1:handshake:zz", expected: (.handshake, "", "zz")),
        Case(payload: "ciph_msg:1:comm:abc", expected: nil),
        Case(payload: "ciph_msg:1:comm::body", expected: (.contextualMessage, "", "body")),
        Case(payload: "ciph_msg:1:comm:ABC:x:y", expected: (.contextualMessage, "414243", "x:y")),
        Case(
            payload: "ciph_msg:1:comm:" + String(repeating: "a", count: 20) + ":b",
            expected: (.contextualMessage, String(repeating: "61", count: 16), "b")),
        Case(payload: "ciph_msg:1:self_stash:data", expected: (.selfStash, "", "data")),
        Case(payload: "ciph_msg:1:self_stash:sc:data:x", expected: (.selfStash, "7363", "data:x")),
        Case(
            payload: "ciph_msg:1:self_stash:" + String(repeating: "s", count: 300) + ":d",
            expected: (.selfStash, String(repeating: "73", count: 255), "d")),
    ]

    @Test(arguments: cases)
    func payloadsAreKeptOrSkippedAsTheIndexerDoes(_ example: Case) {
        let read = KasiaChainRowReader.operation(Array(example.payload.utf8))
        #expect(read?.kind == example.expected?.kind)
        #expect(read.map { Hex.encode($0.tag) } == example.expected?.tag)
        #expect(read.map { String(decoding: $0.body, as: UTF8.self) } == example.expected?.body)
    }

    /// Seeded arbitrary bytes after the prefix never trap, and a kept body is always the
    /// payload's tail.
    @Test func arbitraryBytesNeverTrapAndBodiesAreThePayloadsTail() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        let pieces = ["1:", "comm:", "self_stash:", "payment:", "handshake:", ":", "ab", "\u{0}"].map { Array($0.utf8) }
        var kept = 0
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        for _ in 0..<20_000 {
            var payload = Array("ciph_msg:".utf8)
            for _ in 0..<next() % 6 { payload += pieces[next() % pieces.count] }
            if let read = KasiaChainRowReader.operation(payload) {
                kept += 1
                #expect(payload.suffix(read.body.count).elementsEqual(read.body))
            }
        }
        #expect(kept > 1_000)
    }

    @Test func aRowTakesTheNodesSenderTheFirstOutputAndTheIncludingBlocksTime() throws {
        let sender = KaspaAddress(
            publicKey: try PrivateKey(rawRepresentation: [UInt8](repeating: 3, count: 32)).xOnlyPublicKey,
            network: .testnet)
        let receiver = KaspaAddress(
            publicKey: try PrivateKey(rawRepresentation: [UInt8](repeating: 4, count: 32)).xOnlyPublicKey,
            network: .testnet)
        let input = RPCTransactionInput(
            previousOutpoint: nil, signatureScript: [0x41] + [UInt8](repeating: 0xab, count: 64) + [0x01],
            sequence: nil,
            sigOpCount: nil,
            verboseData: RPCTransactionInputVerboseData(
                utxoEntry: RPCVerboseUtxoEntry(
                    amount: nil, scriptPublicKey: nil, blockDaaScore: nil, isCoinbase: nil,
                    verboseData: RPCScriptVerboseData(
                        scriptPublicKeyType: "PubKey", scriptPublicKeyAddress: sender.description))))
        let output = RPCTransactionOutput(value: 7, scriptPublicKey: KaspaScriptPublicKey(address: receiver))
        var transaction = RPCTransaction(
            version: nil, inputs: [input], outputs: [output], lockTime: nil, subnetworkId: nil, gas: nil,
            payload: Array("ciph_msg:1:handshake:xy".utf8), mass: nil,
            verboseData: RPCTransactionVerboseData(
                transactionId: [UInt8](repeating: 0xcd, count: 32), hash: [], computeMass: nil, blockHash: [],
                blockTime: 1_234))
        let acceptance = KasiaAcceptance(block: String(repeating: "e", count: 64), daaScore: 9)
        let row = try #require(
            KasiaChainRowReader.row(transaction, acceptance: acceptance, fallbackTime: 99, network: .testnet))
        #expect(row.draft.sender == sender.description)
        #expect(row.draft.receiver == receiver.description)
        #expect(row.draft.amount == 7)
        #expect(row.draft.signature == String(repeating: "ab", count: 64))
        #expect(row.draft.txID == String(repeating: "cd", count: 32))
        #expect(row.blockTime == UnixMillis(1_234))
        #expect(row.acceptance == acceptance)
        // Without outputs a handshake keeps no receiver; without the node's sender it is "".
        transaction.outputs = []
        transaction.inputs[0].verboseData = nil
        let bare = try #require(
            KasiaChainRowReader.row(transaction, acceptance: acceptance, fallbackTime: 99, network: .testnet))
        #expect(bare.draft.receiver == nil)
        #expect(bare.draft.sender == "")
        // Without a transaction id there is nothing to key the row by.
        transaction.verboseData = nil
        #expect(
            KasiaChainRowReader.row(transaction, acceptance: acceptance, fallbackTime: 99, network: .testnet) == nil)
    }
}
