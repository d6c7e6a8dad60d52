import Foundation
import KaspaCrypto
import KaspaSimNode
import TandemBasics
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The kasia-indexer routes on the simulated node's port (kasia-protocol §10), over loopback
/// HTTP: rows as kasia-indexer writes them for what the chain accepted, its paging and limits,
/// 400 `{"error"}` for bad parameters, and a reorg's removed blocks gone.
@Suite struct IndexerAPITests {
    let alice: TestWallet
    let bob: TestWallet

    init() throws {
        alice = try TestWallet(seed: 0x11)
        bob = try TestWallet(seed: 0x22)
    }

    /// A JSON member of a row: the routes write strings, numbers and nulls only.
    enum Cell: Decodable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case text(String)
        case number(UInt64)
        case null

        init(stringLiteral value: String) { self = .text(value) }
        init(integerLiteral value: UInt64) { self = .number(value) }

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let number = try? value.decode(UInt64.self) {
                self = .number(number)
            } else {
                self = .text(try value.decode(String.self))
            }
        }
    }

    typealias Row = [String: Cell]

    static func get(_ server: RunningNodeServer, _ path: String) async throws -> (status: Int, body: Data) {
        guard let url = URL(string: server.indexerURL + path) else { throw URLError(.badURL) }
        let (data, response) = try await URLSession.shared.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    static func rows(_ server: RunningNodeServer, _ path: String) async throws -> [Row] {
        let (status, body) = try await get(server, path)
        #expect(status == 200, "\(path): \(String(decoding: body, as: UTF8.self))")
        return try JSONDecoder().decode([Row].self, from: body)
    }

    /// The members every row has: its id, block time and accepting block.
    static func stamp(_ id: [UInt8], _ chain: KasiaChain) throws -> Row {
        let block = try chain.block(of: id)
        return [
            "tx_id": .text(Hex.encode(id)), "block_time": .number(UInt64(block.time.rawValue)),
            "accepting_block": .text(Hex.encode(block.hash)), "accepting_daa_score": .number(block.daaScore),
        ]
    }

    static func hex(_ text: String) -> String { Hex.encode(Array(text.utf8)) }

    static let base64Body = KasiaIndexTests.base64Body
    static func comm(_ alias: String) -> [UInt8] { payload("ciph_msg:1:comm:\(alias):", base64Body) }

    @Test func routesAnswerTheRowsTheChainHolds() async throws {
        // Given a conversation: handshakes both ways, messages on two of Alice's aliases and one of
        // Bob's, a web payment and a KaChat one under kchat:, a saved-handshake stash, a legacy body,
        // and what is not indexed
        var chain = try KasiaChain(funding: [alice, bob])
        let hello = try chain.send(payload("ciph_msg:1:handshake:", sealed(1)), from: alice, to: bob.address)
        let stash = try chain.send(payload("ciph_msg:1:self_stash:saved_handshake:", sealed(2)), from: alice)
        chain.mine()
        let answer = try chain.send(payload("ciph_msg:1:handshake:", sealed(3)), from: bob, to: alice.address)
        let first = try chain.send(Self.comm("aaaaaaaaaaaa"), from: alice)
        chain.mine()
        let reply = try chain.send(Self.comm("bbbbbbbbbbbb"), from: bob)
        let second = try chain.send(Self.comm("cccccccccccc"), from: alice)
        let payment = try chain.send(payload("ciph_msg:1:payment:", sealed(4)), from: bob, to: alice.address)
        let kachatPayment = try chain.send(payload("kchat:1:pay:", sealed(5)), from: bob, to: alice.address)
        try chain.send(payload("hello, chain"), from: alice)
        try chain.send(payload("ciph_msg:1:comm:aaaaaaaaaaaa"), from: alice)
        let legacy = try chain.send(payload("ciph_msg:", sealed(6)), from: alice, to: bob.address)
        chain.mine()
        let third = try chain.send(Self.comm("aaaaaaaaaaaa"), from: alice)
        chain.mine()
        let (a, b) = (alice.address.description, bob.address.description)

        func handshake(_ id: [UInt8], _ from: String, _ to: String, _ body: [UInt8]) throws -> Row {
            try Self.stamp(id, chain).merging(
                ["sender": .text(from), "receiver": .text(to), "message_payload": .text(Hex.encode(body))]
            ) { $1 }
        }
        func message(_ id: [UInt8], _ from: String, _ aliasHex: String) throws -> Row {
            try Self.stamp(id, chain).merging(
                [
                    "sender": .text(from), "alias": .text(aliasHex),
                    "message_payload": .text(Hex.encode(Self.base64Body)),
                ]
            ) { $1 }
        }
        let node = SimulatedKaspaNode(chain: chain.chain)
        try await node.serve(logger: LoopbackTests.logger) { servers in
            let server = servers[0]
            // Then each route lists its rows, ascending
            #expect(
                try await Self.rows(server, "/handshakes/by-sender?address=\(a)")
                    == [try handshake(hello, a, b, sealed(1)), try handshake(legacy, a, b, sealed(6))])
            #expect(
                try await Self.rows(server, "/handshakes/by-receiver?address=\(b)")
                    == [try handshake(hello, a, b, sealed(1)), try handshake(legacy, a, b, sealed(6))])
            #expect(
                try await Self.rows(server, "/handshakes/by-receiver?address=\(a)")
                    == [try handshake(answer, b, a, sealed(3))])
            let aliasA = Self.hex("aaaaaaaaaaaa")
            #expect(
                try await Self.rows(server, "/contextual-messages/by-sender?address=\(a)&alias=\(aliasA)")
                    == [try message(first, a, aliasA), try message(third, a, aliasA)])
            let aliasC = Self.hex("cccccccccccc").uppercased()
            #expect(
                try await Self.rows(server, "/contextual-messages/by-sender?address=\(a)&alias=\(aliasC)")
                    == [try message(second, a, aliasC)])
            let aliasB = Self.hex("bbbbbbbbbbbb")
            #expect(
                try await Self.rows(server, "/contextual-messages/by-sender?address=\(b)&alias=\(aliasB)")
                    == [try message(reply, b, aliasB)])
            #expect(try await Self.rows(server, "/contextual-messages/by-sender?address=\(a)&alias=\(aliasB)").isEmpty)

            let paid = try Self.stamp(payment, chain).merging(
                ["receiver": .text(a), "amount": .number(kas / 5), "message": .text(Hex.encode(sealed(4)))]
            ) { $1 }
            let kachatPaid = try Self.stamp(kachatPayment, chain).merging(
                [
                    "sender": .text(b), "receiver": .text(a), "amount": .number(kas / 5),
                    "message": .text(Hex.encode(sealed(5))),
                ]
            ) { $1 }
            #expect(
                try await Self.rows(server, "/payments/by-receiver?address=\(a)")
                    == [paid.merging(["sender": .text(b)]) { $1 }, kachatPaid])
            #expect(
                try await Self.rows(server, "/payments/by-sender?address=\(b)")
                    == [paid.merging(["sender": .text(b)]) { $1 }, kachatPaid])
            #expect(try await Self.rows(server, "/payments/by-receiver?address=\(b)").isEmpty)

            let scope = Self.hex("saved_handshake")
            #expect(
                try await Self.rows(server, "/self-stash/by-owner?owner=\(a)&scope=\(scope)")
                    == [
                        try Self.stamp(stash, chain).merging(
                            ["owner": .text(a), "scope": .text(scope), "stashed_data": .text(Hex.encode(sealed(2)))]
                        ) { $1 }
                    ])
            #expect(try await Self.rows(server, "/self-stash/by-owner?owner=\(a)&scope=").isEmpty)

            // And the counters count what is indexed (plain and malformed payloads are not)
            let (status, body) = try await Self.get(server, "/metrics")
            #expect(status == 200)
            let metrics = try JSONDecoder().decode(Row.self, from: body)
            #expect(metrics["handshakes_by_sender"] == 3)
            #expect(metrics["uniq_handshakes_by_receiver"] == 3)
            #expect(metrics["payments_by_sender"] == 2)
            #expect(metrics["contextual_messages"] == 4)
            #expect(metrics["latest_block"] == .text(Hex.encode(chain.chain.tip.hash)))
        }
    }

    @Test func pagingWithALimitOfTwoRedeliversOnlyTheBoundaryRows() async throws {
        // Given five of Alice's messages on one alias, a block each
        var chain = try KasiaChain(funding: [alice])
        var ids: [String] = []
        for _ in 0..<5 {
            ids.append(Hex.encode(try chain.send(Self.comm("aaaaaaaaaaaa"), from: alice)))
            chain.mine()
        }
        let node = SimulatedKaspaNode(chain: chain.chain)
        try await node.serve(logger: LoopbackTests.logger) { servers in
            // When a reader pages by KaChat's rule: the next cursor is the last block time seen
            let route = "/contextual-messages/by-sender?address=\(alice.address)&alias=\(Self.hex("aaaaaaaaaaaa"))"
            var pages: [[String]] = []
            var cursor: UInt64 = 0
            while true {
                let page = try await Self.rows(servers[0], "\(route)&limit=2&block_time=\(cursor)")
                pages.append(page.compactMap { if case .text(let id) = $0["tx_id"] { id } else { nil } })
                guard page.count == 2, case .number(let last) = page.last?["block_time"], last > cursor else { break }
                cursor = last
            }

            // Then each page after the first starts with the previous page's last row, and nothing else repeats
            #expect(pages == [[ids[0], ids[1]], [ids[1], ids[2]], [ids[2], ids[3]], [ids[3], ids[4]], [ids[4]]])
        }
    }

    @Test func limitDefaultsToTenAndIsCappedAtFifty() async throws {
        var chain = try KasiaChain(funding: [alice])
        for _ in 0..<55 { try chain.send(payload("ciph_msg:1:self_stash:saved_handshake:", sealed(1)), from: alice) }
        chain.mine()
        let node = SimulatedKaspaNode(chain: chain.chain)
        let time = UInt64(chain.chain.tip.time.rawValue)
        try await node.serve(logger: LoopbackTests.logger) { (servers: [RunningNodeServer]) async throws in
            let route = "/self-stash/by-owner?owner=\(alice.address)&scope=\(Self.hex("saved_handshake"))"
            #expect(try await Self.rows(servers[0], route).count == 10)
            #expect(try await Self.rows(servers[0], route + "&limit=50").count == 50)
            #expect(try await Self.rows(servers[0], route + "&limit=5000").count == 50)
            #expect(try await Self.rows(servers[0], route + "&limit=0").isEmpty)
            #expect(try await Self.rows(servers[0], route + "&block_time=\(time)&limit=50").count == 50)
            #expect(try await Self.rows(servers[0], route + "&block_time=\(time + 1)").isEmpty)
        }
    }

    @Test(arguments: [
        "/handshakes/by-sender",
        "/handshakes/by-sender?address=kaspatest:nope",
        "/handshakes/by-receiver?address=ALICE&limit=ten",
        "/payments/by-sender?address=ALICE&block_time=-1",
        "/payments/by-receiver?address=ALICE&limit=",
        "/contextual-messages/by-sender?address=ALICE",
        "/contextual-messages/by-sender?address=ALICE&alias=abc",
        "/contextual-messages/by-sender?address=ALICE&alias=zz",
        "/contextual-messages/by-sender?address=ALICE&alias=\(String(repeating: "ab", count: 17))",
        "/self-stash/by-owner?owner=ALICE",
        "/self-stash/by-owner?address=ALICE&scope=00",
        "/self-stash/by-owner?owner=ALICE&scope=\(String(repeating: "ab", count: 256))",
    ])
    func refusesBadParametersWithA400(path: String) async throws {
        let node = SimulatedKaspaNode()
        let route = path.replacingOccurrences(of: "ALICE", with: alice.address.description)
        try await node.serve(logger: LoopbackTests.logger) { servers in
            let (status, body) = try await Self.get(servers[0], route)
            #expect(status == 400)
            let answer = try JSONSerialization.jsonObject(with: body) as? [String: Any]
            #expect(answer?["error"] is String)
            #expect(answer?.count == 1)
        }
    }

    @Test func aReorgRemovesTheRowsOfRemovedBlocks() async throws {
        var chain = try KasiaChain(funding: [alice, bob])
        let hello = try chain.send(payload("ciph_msg:1:handshake:", sealed(1)), from: alice, to: bob.address)
        chain.mine()
        let again = try chain.send(payload("ciph_msg:1:handshake:", sealed(2)), from: alice, to: bob.address)
        chain.mine()
        let node = SimulatedKaspaNode(chain: chain.chain)
        try await node.serve(logger: LoopbackTests.logger) { servers in
            let route = "/handshakes/by-receiver?address=\(bob.address)"
            func ids() async throws -> [Cell?] { try await Self.rows(servers[0], route).map { $0["tx_id"] } }
            #expect(try await ids() == [.text(Hex.encode(hello)), .text(Hex.encode(again))])

            // When the block that accepted the second handshake is removed
            try await node.reorg(depth: 1)
            #expect(try await ids() == [.text(Hex.encode(hello))])

            // Then the block that accepts it again brings it back, once, stamped with that block
            await node.mine()
            let rows = try await Self.rows(servers[0], route)
            #expect(rows.map { $0["tx_id"] } == [.text(Hex.encode(hello)), .text(Hex.encode(again))])
            let tip = await node.read { $0.tip }
            #expect(rows.last?["accepting_block"] == .text(Hex.encode(tip.hash)))
            #expect(rows.last?["block_time"] == .number(UInt64(tip.time.rawValue)))
        }
    }
}
