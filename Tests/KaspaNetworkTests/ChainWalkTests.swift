import Foundation
import KaspaCrypto
import KaspaRPC
import KaspaSimNode
import KaspaTransaction
import Testing

@testable import KaspaNode

/// The one walk of the virtual chain that the server's ingest and the client's chat transport
/// share (issue 43 items 6 and 7; kaspa-node.md §5, §11), against the simulated node over loopback
/// WebSockets, with pages of two blocks so that a short chain takes several pages.
@Suite("One virtual-chain walk (issue 43)")
struct ChainWalkTests {
    /// What a walk handed over and told, in order.
    final class Record {
        var pages: [ChainWalk.Page] = []
        var notices: [ChainWalk.Notice] = []
        var stop: ChainWalk.Stop?
        var added: [[UInt8]] { pages.flatMap { $0.added.map(\.hash) } }
    }

    /// A node of `blocks` funding blocks (one transaction each) after genesis, pages of two blocks.
    static func withChain<T>(blocks: Int, _ body: (SimulatedNetwork, KaspaNodeClient) async throws -> T)
        async throws -> T
    {
        try await SimulatedNetwork.with { network in
            for index in 0..<blocks {
                _ = try await network.node.fund(network.address, amount: 1_000 + UInt64(index))
            }
            await network.servers[0].switches.setChainPageLimit(2)
            let client = network.client()
            _ = try await client.connect()
            let result: Result<T, any Error>
            do { result = .success(try await body(network, client)) } catch { result = .failure(error) }
            await client.disconnect()
            return try result.get()
        }
    }

    static func walk(
        _ client: KaspaNodeClient, from start: [UInt8], fallback: [UInt8]?, sink: [UInt8]?, _ record: Record,
        scores: ChainWalk.Scores? = nil, deadline: Duration? = nil
    ) async throws -> [UInt8] {
        var walk = ChainWalk(client: client)
        walk.refusalPause = .milliseconds(1)
        if let deadline { walk.deadline = deadline }
        let ending = try await walk.walk(
            from: start, fallback: fallback, sink: sink, scores: scores, notice: { record.notices.append($0) },
            apply: { record.pages.append($0) })
        record.stop = ending.stop
        return ending.reached
    }

    @Test("a walk ends at the sink it was given, though the node has more blocks after it")
    func endsAtTheSink() async throws {
        try await Self.withChain(blocks: 6) { network, client in
            let (genesis, sink) = await network.node.read { ($0.genesis.hash, $0.tip.hash) }
            // The tip moves on after the caller read the sink (a real node makes 10 blocks a second).
            await network.node.mine(blocks: 4)
            let switches = network.servers[0].switches
            let before = await switches.chainWalkStarts.count
            let record = Record()
            let reached = try await Self.walk(client, from: genesis, fallback: nil, sink: sink, record)
            #expect(reached == sink)
            #expect(record.pages.count == 3, "pages of two blocks up to the sink, the sink's page last")
            #expect(record.added.count == 6)
            #expect(await switches.chainWalkStarts.count - before == 3, "no page after the sink was asked for")
            // Every funding block's transaction came with its block, at level High.
            #expect(record.pages.allSatisfy { $0.skippedBecause == nil })
            #expect(record.pages.flatMap(\.added).allSatisfy { $0.transactions.count == 1 && $0.daaScore != nil })
            // Without a sink, the walk goes on to the node's tip and stops on the empty page.
            let rest = Record()
            let tip = await network.node.read { $0.tip.hash }
            #expect(try await Self.walk(client, from: reached, fallback: nil, sink: nil, rest) == tip)
            #expect(rest.added.count == 4)
        }
    }

    @Test("a refused page is read again from the same block; one refused three times is skipped at level None")
    func refusedPagesAreRetriedThenSkipped() async throws {
        try await Self.withChain(blocks: 2) { network, client in
            let switches = network.servers[0].switches
            let genesis = await network.node.read { $0.genesis.hash }
            // Refused twice, answered the third time: nothing is skipped.
            await switches.refuseNextChainWalks(2, message: "some passing failure")
            let first = Record()
            let middle = try await Self.walk(client, from: genesis, fallback: nil, sink: nil, first)
            #expect(first.added.count == 2)
            #expect(first.pages.allSatisfy { $0.skippedBecause == nil })
            #expect(first.notices.count == 2)
            #expect((await switches.chainWalkStarts).prefix(3).allSatisfy { $0 == genesis })

            // A block with a non-standard output, between two ordinary ones: a real node fails every
            // page holding it from level Low up, for good.
            _ = try await network.node.fund(script: KaspaScriptPublicKey(script: [0x51]), amount: 5)
            _ = try await network.node.fund(network.address, amount: 7)
            _ = try await network.node.fund(network.address, amount: 8)
            let (nonStandard, tip) = await network.node.read { ($0.blocks[3].hash, $0.tip.hash) }
            let second = Record()
            #expect(try await Self.walk(client, from: middle, fallback: nil, sink: tip, second) == tip)
            // The page of the non-standard block and the next came at None, without transactions;
            // the last page came at High with its transaction.
            let skipped = try #require(second.pages.first)
            #expect(skipped.skippedBecause.map { "\($0)" }?.contains("The address is invalid") == true)
            #expect(skipped.added.map(\.hash).contains(nonStandard))
            #expect(skipped.added.allSatisfy { $0.transactions.isEmpty && $0.daaScore == nil })
            let last = try #require(second.pages.last)
            #expect(last.skippedBecause == nil)
            #expect(last.added.last?.hash == tip && last.added.last?.transactions.count == 1)
            let kinds = second.notices.map { notice -> String in
                switch notice {
                case .refused: "refused"
                case .skipped: "skipped"
                case .restarted: "restarted"
                }
            }
            #expect(kinds == ["refused", "refused", "skipped"])
        }
    }

    @Test("only an unknown start walks again, once, from the fallback; without one it is thrown")
    func unknownStartFallsBackOnce() async throws {
        try await Self.withChain(blocks: 3) { network, client in
            let (genesis, tip) = await network.node.read { ($0.genesis.hash, $0.tip.hash) }
            let unknown = [UInt8](repeating: 0xab, count: 32)
            let record = Record()
            #expect(try await Self.walk(client, from: unknown, fallback: genesis, sink: tip, record) == tip)
            #expect(record.added.count == 3)
            guard case .restarted(let from, let error) = record.notices.first else {
                Issue.record("no restart: \(record.notices)")
                return
            }
            #expect(from == genesis && error.isUnknownStartHash)
            // No fallback, or a fallback the node does not know either: thrown, not looped on.
            for fallback in [nil, [UInt8](repeating: 0xcd, count: 32)] {
                do {
                    _ = try await Self.walk(client, from: unknown, fallback: fallback, sink: tip, Record())
                    Issue.record("an unknown start with fallback \(String(describing: fallback)) was walked")
                } catch let error as KaspaNodeError {
                    #expect(error.isUnknownStartHash, "\(error)")
                }
            }
        }
    }

    @Test("a node in IBD ends the walk with its refusal: the caller fails over, nothing is skipped")
    func ibdIsThrown() async throws {
        try await Self.withChain(blocks: 1) { network, client in
            let genesis = await network.node.read { $0.genesis.hash }
            await network.servers[0].switches.setSynced(false)
            let record = Record()
            await #expect(throws: KaspaNodeError.self) {
                _ = try await Self.walk(client, from: genesis, fallback: genesis, sink: nil, record)
            }
            #expect(record.pages.isEmpty && record.notices.isEmpty)
        }
    }

    @Test("an answer whose accepted-transaction lists do not match its added blocks is malformed")
    func mismatchedListsAreMalformed() async throws {
        try await Self.withChain(blocks: 1) { _, client in
            let answer = RPCVirtualChainFromBlockResponse(
                removedChainBlockHashes: [], addedChainBlockHashes: [[UInt8](repeating: 1, count: 32)],
                chainBlockAcceptedTransactions: [])
            do {
                _ = try await ChainWalk.page(answer, node: client)
                Issue.record("a block without its list was read as accepting nothing")
            } catch {
                guard case .malformedAnswer? = error as? KaspaNodeError else {
                    Issue.record("\(error)")
                    return
                }
            }
        }
    }

    /// kaspa-node.md §11: a page gets time for its size. The span from the walk's position to the
    /// sink bounds how many blocks a page merges; a page of the largest span, or of an unknown
    /// one, gets the whole page time.
    @Test("a page call gets the time its span needs, the whole page time when the span is unknown")
    func pageTimeScalesWithTheSpan() {
        let configuration = KaspaNodeConfiguration(
            endpoints: [], network: .testnet10, callTimeout: .seconds(10), pageTimeout: .seconds(120))
        #expect(configuration.pageTimeout(spanning: 0) == .seconds(10))
        #expect(configuration.pageTimeout(spanning: 1_240) == .seconds(65))
        #expect(configuration.pageTimeout(spanning: 2_480) == .seconds(120))
        #expect(configuration.pageTimeout(spanning: 1_000_000) == .seconds(120))
        #expect(configuration.pageTimeout(spanning: nil) == .seconds(120))
    }

    @Test(
        "a walk also ends on the page that reaches the sink's score, when the node never names the sink (issue 50 item 3)"
    )
    func endsAtTheSinkScore() async throws {
        try await Self.withChain(blocks: 6) { network, client in
            let (genesis, third) = await network.node.read { ($0.genesis.hash, $0.blocks[3]) }
            let record = Record()
            let reached = try await Self.walk(
                client, from: genesis, fallback: nil, sink: nil, record,
                scores: ChainWalk.Scores(start: nil, sink: third.daaScore))
            // Pages of two: blocks 1–2, then 3–4, whose page reaches the score; 5–6 are the next walk's.
            #expect(record.added.count == 4)
            #expect(record.stop == nil)
            #expect(reached == record.added.last)
        }
    }

    @Test("a walk out of time ends with a deadline stop where it got to; nothing after is read")
    func deadline() async throws {
        try await Self.withChain(blocks: 2) { network, client in
            let genesis = await network.node.read { $0.genesis.hash }
            let record = Record()
            let reached = try await Self.walk(client, from: genesis, fallback: nil, sink: nil, record, deadline: .zero)
            #expect(reached == genesis)
            #expect(record.pages.isEmpty)
            #expect(record.stop == .deadline(.zero))
            #expect(record.stop?.description.contains("time limit") == true)
        }
    }

    @Test("a page that comes back to a block walked already, or whose scores do not rise, does not advance")
    func pagesThatDoNotAdvance() {
        func block(_ byte: UInt8, _ score: UInt64?) -> ChainWalk.Block {
            ChainWalk.Block(hash: [UInt8](repeating: byte, count: 32), daaScore: score, time: nil, transactions: [])
        }
        func page(_ blocks: [ChainWalk.Block], removed: [[UInt8]] = []) -> ChainWalk.Page {
            ChainWalk.Page(removed: removed, added: blocks, skippedBecause: nil)
        }
        let walked: Set<[UInt8]> = [block(1, 10).hash, block(2, 20).hash]
        #expect(ChainWalk.advances(page([block(3, 21), block(4, 22)]), after: 20, walked: walked))
        // The start again, or a block of an earlier page: a loop.
        #expect(!ChainWalk.advances(page([block(3, 21), block(2, 20)]), after: 20, walked: walked))
        // Scores that do not rise past the position, or within the page.
        #expect(!ChainWalk.advances(page([block(3, 20)]), after: 20, walked: walked))
        #expect(!ChainWalk.advances(page([block(3, 25), block(4, 24)]), after: 20, walked: walked))
        // A reorg's new blocks may score below the removed tip; blocks without scores are not judged.
        #expect(
            ChainWalk.advances(
                page([block(5, 18), block(6, 19)], removed: [block(2, 20).hash]), after: 20, walked: walked))
        #expect(ChainWalk.advances(page([block(7, nil), block(8, nil)]), after: 20, walked: walked))
    }
}
