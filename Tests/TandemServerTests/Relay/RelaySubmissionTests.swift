import Crypto
import Foundation
import HTTPTypes
import KasiaProtocol
import KaspaCrypto
import TandemAPI
import TandemBasics
import TandemServer
import Testing

/// `POST /kasia/transactions` (issue 11 item 1): exact answers, every refusal, idempotence,
/// rate limits, and no 500 for garbage.
@Suite struct RelaySubmissionTests {
    @Test func acceptedSubmissionAnswersTxIDAndBlockTimeByteForByte() async throws {
        let server = try TestServer()
        let submission = RelayFixtures.signed(RelayFixtures.message(), nonce: 7)
        try await server.test { api in
            let answer = try await api.submit(submission)
            #expect(answer.status == .ok)
            #expect(answer.text == #"{"tx_id":"\#(Self.expectedTxID(submission))","block_time":1800000000000}"#)
            #expect(answer.headers[.contentType] == "application/json")
            let receipt = try JSONDecoder().decode(RelayReceipt.self, from: answer.body)
            #expect(receipt.blockTime == 1_800_000_000_000)
        }
    }

    /// The digest recomputed from its definition, independently of `RelayDigest`.
    static func expectedTxID(_ submission: RelaySubmission) -> String {
        var bytes = Array(
            "tandem-relay/v1\n\(submission.sender)\n\(submission.receiver ?? "")\n\(submission.amount ?? 0)\n\(submission.nonce)\n"
                .utf8)
        bytes += (try? Hex.decode(submission.payload)) ?? []
        let digest = Array(SHA256.hash(data: bytes))
        return Hex.encode(SHA256.hash(data: digest))
    }

    @Test func digestIsPinnedByAGoldenValue() {
        let digest = RelayDigest(
            sender: "kaspa:qexample", receiver: nil, amount: nil, nonce: 18_446_744_073_709_551_615, payload: [0x01])
        let expected = Array(
            SHA256.hash(data: Array("tandem-relay/v1\nkaspa:qexample\n\n0\n18446744073709551615\n".utf8) + [0x01]))
        #expect(digest.bytes == expected)
    }

    @Test func resubmissionIsOneRowWithTheSameAnswer() async throws {
        let server = try TestServer()
        let submission = RelayFixtures.signed(RelayFixtures.handshake(), to: RelayFixtures.bob, amount: 20_000_000)
        try await server.test { api in
            let first = try await api.submit(submission)
            server.clock.advance(by: .seconds(5))
            let again = try await api.submit(submission)
            #expect(first.status == .ok)
            #expect(again.text == first.text)
            let bySender = try await api.send(
                .get, APIPath.kasiaHandshakesBySender + "?address=\(RelayFixtures.address(RelayFixtures.alice))")
            #expect((try JSONSerialization.jsonObject(with: bySender.body) as? [Any])?.count == 1)
        }
    }

    @Test func nonceAndAmountKeepAll64Bits() async throws {
        let server = try TestServer()
        let submission = RelayFixtures.signed(
            RelayFixtures.payment(), to: RelayFixtures.bob, amount: UInt64(Int64.max), nonce: .max)
        try await server.test { api in
            let answer = try await api.submit(submission)
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.json?["tx_id"] as? String == Self.expectedTxID(submission))
        }
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        let status: HTTPResponse.Status
        let code: APIErrorCode
        let body: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = {
        let alice = RelayFixtures.alice
        let bob = RelayFixtures.bob
        func json(_ submission: RelaySubmission) -> String { RelayFixtures.json(submission) }
        func tampered(_ submission: RelaySubmission, _ change: (inout RelaySubmission) -> Void) -> String {
            var copy = submission
            change(&copy)
            return json(copy)
        }
        let message = RelayFixtures.signed(RelayFixtures.message())
        let ecdsa = KaspaAddress(ecdsaPublicKey: alice.publicKey).description
        return [
            Refusal(
                name: "bad signature", status: .badRequest, code: .invalidSignature,
                body:
                    tampered(message) { $0.nonce += 1 }),
            Refusal(
                name: "signature by another key", status: .badRequest, code: .invalidSignature,
                body:
                    tampered(message) {
                        $0.signature = RelayFixtures.signed(RelayFixtures.message(), by: bob).signature
                    }),
            Refusal(
                name: "sender not Schnorr", status: .badRequest, code: .senderNotSchnorr,
                body:
                    tampered(message) { $0.sender = ecdsa }),
            Refusal(
                name: "sender not an address", status: .badRequest, code: .invalidAddress,
                body:
                    tampered(message) { $0.sender = "kaspa:nonsense" }),
            Refusal(
                name: "receiver not an address", status: .badRequest, code: .invalidAddress,
                body:
                    tampered(RelayFixtures.signed(RelayFixtures.handshake(), to: bob)) { $0.receiver = "kaspa:nope" }),
            Refusal(
                name: "handshake without receiver", status: .badRequest, code: .receiverRequired,
                body:
                    json(RelayFixtures.signed(RelayFixtures.handshake()))),
            Refusal(
                name: "payment without receiver", status: .badRequest, code: .receiverRequired,
                body:
                    json(RelayFixtures.signed(RelayFixtures.payment(), amount: 5))),
            Refusal(
                name: "legacy body without receiver", status: .badRequest, code: .receiverRequired,
                body:
                    json(
                        RelayFixtures.signed(
                            KasiaPayload.legacy(sealed: RelayFixtures.sealed(3)).encoded(root: .ciphMsg)))),
            Refusal(
                name: "message with receiver", status: .badRequest, code: .receiverForbidden,
                body:
                    json(RelayFixtures.signed(RelayFixtures.message(), to: bob))),
            Refusal(
                name: "self-stash with amount", status: .badRequest, code: .receiverForbidden,
                body:
                    json(RelayFixtures.signed(RelayFixtures.selfStash(), amount: 1))),
            Refusal(
                name: "payload over 10 KiB", status: .contentTooLarge, code: .payloadTooLarge,
                body:
                    json(
                        RelayFixtures.signed(
                            KasiaPayload.handshake(sealed: RelayFixtures.sealed(1, count: 10_240)).encoded(
                                root: .ciphMsg), to: bob))),
            Refusal(
                name: "not a Kasia envelope", status: .badRequest, code: .notAKasiaPayload,
                body:
                    json(RelayFixtures.signed(Array("hello world".utf8)))),
            Refusal(
                name: "unknown Kasia operation", status: .badRequest, code: .notAKasiaPayload,
                body:
                    json(RelayFixtures.signed(Array("ciph_msg:1:gcomm:x:y".utf8)))),
            Refusal(
                name: "payload not hex", status: .badRequest, code: .invalidHex,
                body:
                    tampered(message) { $0.payload = "zz" + $0.payload.dropFirst(2) }),
            Refusal(
                name: "payload uppercase hex", status: .badRequest, code: .invalidHex,
                body:
                    tampered(message) { $0.payload = $0.payload.uppercased() }),
            Refusal(
                name: "signature too short", status: .badRequest, code: .invalidHex,
                body:
                    tampered(message) { $0.signature = String($0.signature.dropLast(2)) }),
            Refusal(
                name: "nonce negative", status: .badRequest, code: .validationError,
                body:
                    json(message).replacingOccurrences(of: #""nonce":1"#, with: #""nonce":-1"#)),
            Refusal(
                name: "nonce missing", status: .badRequest, code: .validationError,
                body:
                    json(message).replacingOccurrences(of: #""nonce":1,"#, with: "")),
            Refusal(
                name: "nonce not an integer", status: .badRequest, code: .validationError,
                body:
                    json(message).replacingOccurrences(of: #""nonce":1"#, with: #""nonce":1.5"#)),
            Refusal(
                name: "nonce as text", status: .badRequest, code: .validationError,
                body:
                    json(message).replacingOccurrences(of: #""nonce":1"#, with: #""nonce":"1""#)),
            // One strict parse is the only decode, so a repeated member is still invalid JSON.
            Refusal(
                name: "duplicate member", status: .badRequest, code: .badRequest,
                body: #"{"nonce":2,"# + json(message).dropFirst()),
            Refusal(
                name: "amount beyond int64", status: .badRequest, code: .validationError,
                body:
                    json(RelayFixtures.signed(RelayFixtures.payment(), to: bob, amount: .max))),
        ]
    }()

    @Test(arguments: refusals)
    func refusalAnswersItsCodeAndStoresNothing(refusal: Refusal) async throws {
        let server = try TestServer()
        try await server.test { api in
            let answer = try await api.send(.post, APIPath.kasiaTransactions, json: refusal.body)
            #expect(answer.status == refusal.status, "\(answer.text)")
            #expect(answer.errorCode == refusal.code.rawValue, "\(answer.text)")
            #expect(answer.json?["message"] is String)
        }
        #expect(try await server.store.latestKasiaPosition() == nil)
    }

    /// The server remembers the parsed keys of recent senders (`SenderKeyCache`); that changes
    /// no answer. On one server that has accepted Alice's submission, so her key is cached,
    /// every refusal still answers its code, twice in a row, and stores nothing.
    @Test func refusalsAnswerTheSameOnceTheSendersKeyIsCached() async throws {
        let server = try TestServer()
        try await server.test { api in
            #expect(try await api.submit(RelayFixtures.signed(RelayFixtures.message(), nonce: 1)).status == .ok)
            for refusal in Self.refusals {
                for _ in 0..<2 {
                    let answer = try await api.send(.post, APIPath.kasiaTransactions, json: refusal.body)
                    #expect(answer.status == refusal.status, "\(refusal.name): \(answer.text)")
                    #expect(answer.errorCode == refusal.code.rawValue, "\(refusal.name): \(answer.text)")
                }
            }
        }
        let rows = try await server.store.kasiaRecords(after: 0, watching: nil, limit: 100)
        #expect(rows.count == 1)
    }

    @Test(arguments: [
        "", "null", "[]", "{", "{\"payload\":1}", "\"x\"", "{\"a\":" + String(repeating: "[", count: 100),
    ])
    func garbageBodiesNeverAnswer500(body: String) async throws {
        let server = try TestServer()
        try await server.test { api in
            let answer = try await api.send(.post, APIPath.kasiaTransactions, json: body)
            #expect(answer.status.code >= 400 && answer.status.code < 500, "\(body) → \(answer.status)")
            #expect(answer.errorCode != nil)
        }
        #expect(try await server.store.latestKasiaPosition() == nil)
    }

    @Test func senderIsRateLimitedAfterABurstOfTwentyWithRetryAfter() async throws {
        let server = try TestServer(rateLimiting: true)
        try await server.test { api in
            for nonce in 1...20 {
                let answer = try await api.submit(RelayFixtures.signed(RelayFixtures.message(), nonce: UInt64(nonce)))
                #expect(answer.status == .ok)
            }
            let limited = try await api.submit(RelayFixtures.signed(RelayFixtures.message(), nonce: 21))
            #expect(limited.status == .tooManyRequests)
            #expect(limited.errorCode == APIErrorCode.rateLimited.rawValue)
            #expect(limited.headers[.retryAfter] == "1")
            server.clock.advance(by: .seconds(1))
            #expect(try await api.submit(RelayFixtures.signed(RelayFixtures.message(), nonce: 22)).status == .ok)
        }
        // The refused one stored nothing: 21 rows.
        let rows = try await server.store.kasiaRecords(after: 0, watching: nil, limit: 100)
        #expect(rows.count == 21)
    }

    @Test func blockTimesAreUniqueAndIncreasingWhenTheClockStandsStill() async throws {
        let server = try TestServer()
        try await server.test { api in
            var times: [Int] = []
            for nonce in 1...5 {
                let answer = try await api.submit(RelayFixtures.signed(RelayFixtures.message(), nonce: UInt64(nonce)))
                times.append(try #require(answer.json?["block_time"] as? Int))
            }
            #expect(times == [0, 1, 2, 3, 4].map { 1_800_000_000_000 + $0 })
        }
    }
}
