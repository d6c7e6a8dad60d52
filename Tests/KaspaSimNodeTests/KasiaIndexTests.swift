import Foundation
import KasiaIndex
import KasiaProtocol
import KaspaCrypto
import KaspaSimNode
import TandemBasics
import Testing

/// What the simulated kasia-indexer holds, computed by the pure chain (kasia-protocol §4, §10;
/// kaspa-node.md §10): each payload read as kasia-indexer reads it, the parties and times of
/// the including block, and a reorg's removed blocks gone.
@Suite struct KasiaIndexTests {
    let alice: TestWallet
    let bob: TestWallet

    init() throws {
        alice = try TestWallet(seed: 0x11)
        bob = try TestWallet(seed: 0x22)
    }

    static let base64Body = Array(Data(sealed(3)).base64EncodedString().utf8)

    /// The table and key kasia-indexer files a payload under.
    enum Operation: Sendable, Hashable {
        case handshake
        case contextualMessage(alias: [UInt8])
        case payment
        case selfStash(scope: [UInt8])

        init(_ indexed: KasiaIndexedPayload) {
            switch indexed.kind {
            case .handshake: self = .handshake
            case .payment: self = .payment
            case .contextualMessage: self = .contextualMessage(alias: indexed.tag)
            case .selfStash: self = .selfStash(scope: indexed.tag)
            }
        }
    }

    /// A payload and what kasia-indexer keeps of it: the operation and the stored body, or nil.
    struct PayloadCase: Sendable, CustomTestStringConvertible {
        var kind: String
        var bytes: [UInt8]
        var operation: Operation?
        var body: [UInt8] = []

        var testDescription: String { kind }
    }

    static let payloads: [PayloadCase] = [
        .init(
            kind: "handshake", bytes: payload("ciph_msg:1:handshake:", sealed(1)), operation: .handshake,
            body: sealed(1)),
        .init(kind: "legacy", bytes: payload("ciph_msg:", sealed(2)), operation: .handshake, body: sealed(2)),
        .init(
            kind: "unversioned pay, read as legacy", bytes: payload("ciph_msg:pay:", sealed(2)), operation: .handshake,
            body: payload("pay:", sealed(2))),
        .init(
            kind: "comm", bytes: payload("ciph_msg:1:comm:0123456789ab:", base64Body),
            operation: .contextualMessage(alias: Array("0123456789ab".utf8)), body: base64Body),
        .init(
            kind: "comm, alias bytes as written", bytes: payload("ciph_msg:1:comm:ABCDEF012345:", base64Body),
            operation: .contextualMessage(alias: Array("ABCDEF012345".utf8)), body: base64Body),
        .init(
            kind: "web payment", bytes: payload("ciph_msg:1:payment:", sealed(4)), operation: .payment, body: sealed(4)),
        .init(
            kind: "self-stash", bytes: payload("ciph_msg:1:self_stash:saved_handshake:", sealed(5)),
            operation: .selfStash(scope: Array("saved_handshake".utf8)), body: sealed(5)),
        .init(
            kind: "self-stash without a scope", bytes: payload("ciph_msg:1:self_stash:", sealed(6)),
            operation: .selfStash(scope: []), body: sealed(6)),
        .init(kind: "KaChat pay", bytes: payload("ciph_msg:1:pay:", sealed(7)), operation: .payment, body: sealed(7)),
        .init(kind: "kchat: pay", bytes: payload("kchat:1:pay:", sealed(7)), operation: .payment, body: sealed(7)),
        .init(
            kind: "kchat: handshake", bytes: payload("kchat:1:handshake:", sealed(1)), operation: .handshake,
            body: sealed(1)),
        .init(
            kind: "kchat: comm", bytes: payload("kchat:1:comm:0123456789ab:", base64Body),
            operation: .contextualMessage(alias: Array("0123456789ab".utf8)), body: base64Body),
        .init(
            kind: "kchat: self-stash", bytes: payload("kchat:1:self_stash:saved_handshake:", sealed(5)),
            operation: .selfStash(scope: Array("saved_handshake".utf8)), body: sealed(5)),
        .init(kind: "kchat: versionless", bytes: payload("kchat:", sealed(2)), operation: .handshake, body: sealed(2)),
        .init(kind: "broadcast", bytes: payload("ciph_msg:1:bcast:general:hello"), operation: nil),
        .init(kind: "comm without its alias delimiter", bytes: payload("ciph_msg:1:comm:0123456789ab"), operation: nil),
        .init(kind: "unknown operation", bytes: payload("ciph_msg:1:weird:", sealed(8)), operation: nil),
        .init(kind: "bare magic", bytes: payload("ciph_msg:"), operation: nil),
        .init(kind: "not Kasia", bytes: payload("hello, chain"), operation: nil),
    ]

    @Test(arguments: payloads)
    func readsAPayloadAsKasiaIndexerDoes(_ item: PayloadCase) {
        let indexed = KasiaIndexedPayload(item.bytes)
        #expect(indexed.map(Operation.init) == item.operation)
        #expect(indexed.map(\.body) == item.operation.map { _ in item.body })
    }

    @Test func anEntryNamesTheFirstInputsOwnerTheFirstOutputAndTheIncludingBlock() throws {
        var chain = try KasiaChain(funding: [alice, bob])
        let handshake = try chain.send(payload("ciph_msg:1:handshake:", sealed(1)), from: alice, to: bob.address)
        let note = try chain.send(payload("hello, chain"), from: alice)
        chain.mine()
        let block = try chain.block(of: handshake)

        let entries = chain.chain.kasiaIndex
        #expect(entries.map(\.txID) == [Hex.encode(handshake)])
        #expect(try chain.block(of: note) == block)
        let entry = try #require(entries.first)
        #expect(entry.sender == alice.address.description)
        #expect(entry.receiver == bob.address.description)
        #expect(entry.amount == kas / 5)
        #expect(entry.blockTime == UInt64(block.time.rawValue))
        #expect(entry.acceptance == KasiaIndexRow.Acceptance(block: Hex.encode(block.hash), daaScore: block.daaScore))
        #expect(entry.body == sealed(1))
        #expect(entry.root == .ciphMsg)
    }

    @Test func aReorgDropsTheEntriesOfRemovedBlocksUntilABlockAcceptsThemAgain() throws {
        var chain = try KasiaChain(funding: [alice, bob])
        let alias = Array("0123456789ab".utf8)
        let first = try chain.send(payload("ciph_msg:1:comm:0123456789ab:", Self.base64Body), from: alice)
        chain.mine()
        let second = try chain.send(payload("ciph_msg:1:comm:0123456789ab:", Self.base64Body), from: alice)
        chain.mine()
        let query = KasiaIndexSelection.contextualMessagesBySender(alice.address, alias: alias)
        #expect(
            chain.chain.kasiaIndex(query, from: 0, limit: 50).map(\.txID) == [first, second].map { Hex.encode($0) })

        // When the block that accepted the second is removed (the transaction back in the mempool)
        _ = try chain.fixture.chain.reorg(depth: 1)
        #expect(chain.chain.kasiaIndex(query, from: 0, limit: 50).map(\.txID) == [Hex.encode(first)])

        // Then the block that accepts it again lists it once, with its own hash and time
        chain.mine()
        let entries = chain.chain.kasiaIndex(query, from: 0, limit: 50)
        #expect(entries.map(\.txID) == [first, second].map { Hex.encode($0) })
        #expect(entries.last?.acceptance?.block == Hex.encode(chain.chain.tip.hash))
        #expect(entries.last?.blockTime == UInt64(chain.chain.tip.time.rawValue))
    }

    @Test func queriesMatchAddressesByKeyWhateverTheirNetworkPrefix() throws {
        var chain = try KasiaChain(funding: [alice, bob])
        let id = try chain.send(payload("ciph_msg:1:handshake:", sealed(1)), from: alice, to: bob.address)
        chain.mine()
        let mainnet = try KaspaAddress(network: .mainnet, version: bob.address.version, payload: bob.address.payload)
        #expect(
            chain.chain.kasiaIndex(.handshakesByReceiver(mainnet), from: 0, limit: 10).map(\.txID) == [Hex.encode(id)])
        #expect(chain.chain.kasiaIndex(.handshakesBySender(bob.address), from: 0, limit: 10).isEmpty)
        #expect(chain.chain.kasiaIndex(.paymentsByReceiver(bob.address), from: 0, limit: 10).isEmpty)
    }
}
