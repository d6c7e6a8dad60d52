import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemAPI
import TandemBasics
import TandemServer
import Testing

/// The kasia-indexer-compatible reads (kasia-protocol §10): golden rows, the inclusive
/// ascending cursor, limits, and the indexer's 400 `{"error"}`.
@Suite struct IndexerReadTests {
    static let alice = RelayFixtures.address(RelayFixtures.alice).description
    static let bob = RelayFixtures.address(RelayFixtures.bob).description

    /// One row of every kind: alice's handshake, message, payment and stash at t0…t0+3.
    static func seed(_ api: APIClient) async throws -> [String] {
        var ids: [String] = []
        for submission in [
            RelayFixtures.signed(RelayFixtures.handshake(), to: RelayFixtures.bob, amount: 20_000_000),
            RelayFixtures.signed(RelayFixtures.message()),
            RelayFixtures.signed(RelayFixtures.payment(), to: RelayFixtures.bob, amount: 150_000_000),
            RelayFixtures.signed(RelayFixtures.selfStash()),
        ] {
            let answer = try await api.submit(submission)
            ids.append(try #require(answer.json?["tx_id"] as? String))
        }
        return ids
    }

    @Test func everyRouteAnswersTheIndexerRowByteForByte() async throws {
        let server = try TestServer()
        try await server.test { api in
            let ids = try await Self.seed(api)
            let sealed = Hex.encode(RelayFixtures.sealed(1))
            let base64Hex = Hex.encode(Array(Data(RelayFixtures.sealed(1)).base64EncodedString().utf8))
            let alias = RelayFixtures.alias.indexerQueryParameter
            let scope = Hex.encode(Array("saved_handshake".utf8))
            let handshake =
                #"[{"tx_id":"\#(ids[0])","sender":"\#(Self.alice)","receiver":"\#(Self.bob)","block_time":1800000000000,"accepting_block":null,"accepting_daa_score":null,"message_payload":"\#(sealed)","root":"ciph_msg"}]"#
            #expect(try await api.send(.get, "/kasia/handshakes/by-sender?address=\(Self.alice)").text == handshake)
            #expect(try await api.send(.get, "/kasia/handshakes/by-receiver?address=\(Self.bob)").text == handshake)
            #expect(
                try await api.send(.get, "/kasia/contextual-messages/by-sender?address=\(Self.alice)&alias=\(alias)")
                    .text
                    == #"[{"tx_id":"\#(ids[1])","sender":"\#(Self.alice)","alias":"\#(alias)","block_time":1800000000001,"accepting_block":null,"accepting_daa_score":null,"message_payload":"\#(base64Hex)","root":"ciph_msg"}]"#
            )
            #expect(
                try await api.send(.get, "/kasia/payments/by-sender?address=\(Self.alice)").text
                    == #"[{"tx_id":"\#(ids[2])","sender":"\#(Self.alice)","receiver":"\#(Self.bob)","block_time":1800000000002,"amount":150000000,"message":"\#(sealed)","accepting_block":null,"accepting_daa_score":null,"root":"ciph_msg","verified":false}]"#
            )
            #expect(
                try await api.send(.get, "/kasia/payments/by-receiver?address=\(Self.bob)").text
                    == #"[{"tx_id":"\#(ids[2])","sender":"\#(Self.alice)","receiver":"\#(Self.bob)","block_time":1800000000002,"amount":150000000,"message":"\#(sealed)","accepting_block":null,"accepting_daa_score":null,"root":"ciph_msg","verified":false}]"#
            )
            #expect(
                try await api.send(.get, "/kasia/self-stash/by-owner?owner=\(Self.alice)&scope=\(scope)").text
                    == #"[{"tx_id":"\#(ids[3])","owner":"\#(Self.alice)","scope":"\#(scope)","block_time":1800000000003,"accepting_block":null,"accepting_daa_score":null,"stashed_data":"\#(sealed)","root":"ciph_msg"}]"#
            )
            // The TandemAPI types read the same bytes.
            let rows = try JSONDecoder().decode(
                [IndexerPayment].self,
                from: try await api.send(.get, "/kasia/payments/by-receiver?address=\(Self.bob)").body)
            var expected = IndexerPayment(
                txID: ids[2], sender: Self.alice, receiver: Self.bob, blockTime: 1_800_000_000_002,
                amount: 150_000_000, message: sealed)
            expected.root = "ciph_msg"
            expected.verified = false
            #expect(rows == [expected])
            #expect(rows.first?.isVerified == false, "relayed, never accepted: its coins may not exist")
        }
    }

    @Test func aliasIsEchoedAsGivenAndMatchedCaseInsensitively() async throws {
        let server = try TestServer()
        try await server.test { api in
            _ = try await Self.seed(api)
            let upper = RelayFixtures.alias.indexerQueryParameter.uppercased()
            let rows = try await api.send(
                .get, "/kasia/contextual-messages/by-sender?address=\(Self.alice)&alias=\(upper)")
            let decoded = try JSONDecoder().decode([IndexerContextualMessage].self, from: rows.body)
            #expect(decoded.map(\.alias) == [upper])
            let other = try await api.send(.get, "/kasia/contextual-messages/by-sender?address=\(Self.alice)&alias=00")
            #expect(other.text == "[]")
        }
    }

    /// kasia-indexer requires `scope` and echoes it as given: empty selects the stashes without
    /// a scope, and uppercase hex finds the same rows and comes back uppercase.
    @Test func selfStashScopeIsRequiredAndEchoedAsGiven() async throws {
        let server = try TestServer()
        try await server.test { api in
            _ = try await Self.seed(api)
            _ = try await api.submit(RelayFixtures.signed(RelayFixtures.selfStash(2, scope: nil)))
            let unscoped = try JSONDecoder().decode(
                [IndexerSelfStash].self,
                from: try await api.send(.get, "/kasia/self-stash/by-owner?owner=\(Self.alice)&scope=").body)
            #expect(unscoped.count == 1)
            #expect(unscoped.first?.scope == "")
            let upper = Hex.encode(Array("saved_handshake".utf8)).uppercased()
            let scoped = try JSONDecoder().decode(
                [IndexerSelfStash].self,
                from: try await api.send(.get, "/kasia/self-stash/by-owner?owner=\(Self.alice)&scope=\(upper)").body)
            #expect(scoped.count == 1)
            #expect(scoped.first?.scope == upper)
            let missing = try await api.send(.get, "/kasia/self-stash/by-owner?owner=\(Self.alice)")
            #expect(missing.status == .badRequest)
            #expect(missing.text == #"{"error":"Failed to deserialize query string: missing field `scope`"}"#)
        }
    }

    /// The length refusals are kasia-indexer's texts, word for word.
    @Test func hexLengthRefusalsUseTheIndexerWording() async throws {
        let server = try TestServer()
        try await server.test { api in
            let alias = try await api.send(
                .get,
                "/kasia/contextual-messages/by-sender?address=\(Self.alice)&alias=\(String(repeating: "ab", count: 17))"
            )
            #expect(alias.text == #"{"error":"Alias hex length cannot exceed 32 characters"}"#)
            let scope = try await api.send(
                .get, "/kasia/self-stash/by-owner?owner=\(Self.alice)&scope=\(String(repeating: "ab", count: 256))")
            #expect(scope.text == #"{"error":"Scope hex length cannot exceed 510 characters"}"#)
        }
    }

    @Test func cursorIsInclusiveAscendingAndLimitDefaultsToTenCappedAtFifty() async throws {
        let server = try TestServer()
        try await server.test { api in
            for nonce in 1...60 {
                _ = try await api.submit(
                    RelayFixtures.signed(RelayFixtures.message(UInt8(nonce % 7)), nonce: UInt64(nonce)))
            }
            let path =
                "/kasia/contextual-messages/by-sender?address=\(Self.alice)&alias=\(RelayFixtures.alias.indexerQueryParameter)"
            func times(_ query: String) async throws -> [UInt64] {
                try JSONDecoder().decode(
                    [IndexerContextualMessage].self, from: try await api.send(.get, path + query).body
                ).map(\.blockTime)
            }
            let t0: UInt64 = 1_800_000_000_000
            #expect(try await times("") == (0..<10).map { t0 + $0 })
            #expect(try await times("&limit=100").count == 50)
            #expect(try await times("&limit=0") == [])
            #expect(try await times("&block_time=\(t0 + 5)&limit=3") == [t0 + 5, t0 + 6, t0 + 7])
            // Paging KaChat's way (next cursor = max seen, dedupe by tx_id) reads all 60 once.
            var cursor: UInt64 = 0
            var seen: [String] = []
            for _ in 0..<20 {
                let page = try JSONDecoder().decode(
                    [IndexerContextualMessage].self,
                    from: try await api.send(.get, path + "&limit=50&block_time=\(cursor)").body)
                for row in page where !seen.contains(row.txID) { seen.append(row.txID) }
                let newest = page.map(\.blockTime).max() ?? cursor
                if page.count < 50 || newest == cursor { break }
                cursor = newest
            }
            #expect(seen.count == 60)
        }
    }

    @Test(arguments: [
        "/kasia/handshakes/by-sender", "/kasia/handshakes/by-sender?address=kaspa:nope",
        "/kasia/handshakes/by-receiver?address=\(alice)&limit=-1",
        "/kasia/payments/by-sender?address=\(alice)&limit=ten",
        "/kasia/payments/by-receiver?address=\(alice)&block_time=yesterday",
        "/kasia/contextual-messages/by-sender?address=\(alice)",
        "/kasia/contextual-messages/by-sender?address=\(alice)&alias=xyz1",
        "/kasia/contextual-messages/by-sender?address=\(alice)&alias=\(String(repeating: "ab", count: 17))",
        "/kasia/contextual-messages/by-sender?address=\(alice)&alias=abc",
        "/kasia/self-stash/by-owner?address=\(alice)", "/kasia/self-stash/by-owner?owner=\(alice)&scope=%00%22",
        "/kasia/self-stash/by-owner?owner=\(alice)",
        "/kasia/stream", "/kasia/stream?alias=zz", "/kasia/stream?address=kaspa:nope",
    ])
    func badQueryParametersAnswer400WithTheIndexerErrorBody(path: String) async throws {
        let server = try TestServer()
        try await server.test { api in
            let answer = try await api.send(.get, path)
            #expect(answer.status == .badRequest, "\(path): \(answer.status) \(answer.text)")
            #expect(answer.json?["error"] is String, "\(path): \(answer.text)")
        }
    }

    /// The counters in kasia-indexer's field order (its snapshot's declaration order), byte for
    /// byte, and readable by the TandemAPI type.
    @Test func metricsCountRowsPerKindInTheIndexerFieldOrder() async throws {
        let server = try TestServer()
        try await server.test { api in
            _ = try await Self.seed(api)
            let answer = try await api.send(.get, APIPath.kasiaMetrics)
            let zero = String(repeating: "0", count: 64)
            #expect(
                answer.text
                    == #"{"handshakes_by_sender":1,"uniq_handshakes_by_receiver":1,"payments_by_sender":1,"uniq_payments_by_receiver":1,"contextual_messages":1,"blocks_processed":0,"latest_block":"\#(zero)","latest_accepting_block":"\#(zero)","unknown_sender_entries":0,"resolved_senders":0,"pruned_blocks":0}"#
            )
            let metrics = try JSONDecoder().decode(IndexerMetrics.self, from: answer.body)
            #expect(metrics == IndexerMetrics(handshakes: 1, payments: 1, contextualMessages: 1))
        }
    }
}
