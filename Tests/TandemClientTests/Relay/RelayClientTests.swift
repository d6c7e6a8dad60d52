import Foundation
import KaspaCrypto
import TandemAPI
import TandemAccounts
import TandemBasics
import TandemMessaging
import Testing

/// Answers every request with one fixed response and keeps the requests.
final class FixedAnswerTransport: HTTPTransport, Sendable {
    private let sent = Locked<[TransportRequest]>([])
    private let answer: TransportResponse

    init(status: Int, headers: [(name: String, value: String)] = [], body: String) {
        answer = TransportResponse(status: status, headers: headers, body: Data(body.utf8))
    }

    var requests: [TransportRequest] { sent.withLock { $0 } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        sent.withLock { $0.append(request) }
        return answer
    }
}

@Suite struct RelayClientTests {
    static let server = URL(string: "http://127.0.0.1:9")!

    static func submission() throws -> RelaySubmission {
        try RelaySubmission.signed(payload: Array("ciph_msg:1:bcast:x:hi".utf8), by: PrivateKey.generate(), nonce: 1)
    }

    @Test func submitPostsTheSignedJSONAndReadsTheReceipt() async throws {
        let transport = FixedAnswerTransport(status: 200, body: #"{"tx_id":"ab","block_time":7}"#)
        let submission = try Self.submission()
        let receipt = try await RelayClient(server: Self.server, transport: transport).submit(submission)
        #expect(receipt == RelayReceipt(txID: "ab", blockTime: 7))
        let request = try #require(transport.requests.first)
        #expect(request.method == "POST")
        #expect(request.url.path == APIPath.kasiaTransactions)
        #expect(try APIJSON.decoder().decode(RelaySubmission.self, from: request.body ?? Data()) == submission)
    }

    @Test func aRefusalCarriesItsTypedCode() async throws {
        let transport = FixedAnswerTransport(status: 400, body: #"{"code":"INVALID_SIGNATURE","message":"bad"}"#)
        await #expect(throws: RelayClientError.refused(status: 400, code: .invalidSignature, message: "bad")) {
            try await RelayClient(server: Self.server, transport: transport).submit(try Self.submission())
        }
    }

    @Test func tooManyRequestsHonoursRetryAfter() async throws {
        let transport = FixedAnswerTransport(
            status: 429, headers: [(name: "Retry-After", value: "3")],
            body: #"{"code":"RATE_LIMITED","message":"slow down"}"#)
        await #expect(throws: RelayClientError.rateLimited(retryAfterSeconds: 3, message: "slow down")) {
            try await RelayClient(server: Self.server, transport: transport).submit(try Self.submission())
        }
    }

    @Test func indexerReadsSendTheCursorAndLimitAndReadAnEmptyBodyAsNoRows() async throws {
        let transport = FixedAnswerTransport(status: 200, body: "")
        var cursor = IndexerCursor(blockTime: 42)
        let rows = try await RelayClient(server: Self.server, transport: transport)
            .indexer.contextualMessages(bySender: "kaspa:q", aliasHex: "6162", after: &cursor)
        #expect(rows.isEmpty)
        let request = try #require(transport.requests.first)
        let query = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(
            query.map { "\($0.name)=\($0.value ?? "")" } == [
                "address=kaspa:q", "alias=6162", "block_time=42", "limit=50",
            ])
    }

    @Test func indexerErrorsAreTheIndexerErrorBody() async throws {
        let transport = FixedAnswerTransport(status: 400, body: #"{"error":"Invalid alias"}"#)
        var cursor = IndexerCursor.start
        await #expect(throws: RelayClientError.indexer(status: 400, message: "Invalid alias")) {
            try await RelayClient(server: Self.server, transport: transport).indexer.handshakes(
                toReceiver: "kaspa:q", after: &cursor)
        }
    }
}
