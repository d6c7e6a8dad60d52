import CanonicalJSON
import Foundation
import HTTPTypes
import Hummingbird
import KaspaCrypto
import KaspaTransaction
import Logging
import NIOCore
import TandemAPI
import TandemBasics
import TandemServerStore

/// `POST /kasia/transactions`: signed Kasia payloads in, `{"tx_id","block_time"}` out
/// (issue 11 item 1). Every refusal is a 4xx `{code, message}` and stores nothing. With a Kaspa
/// node (issue 25 item 5), a signed Kaspa transaction is also submitted to it and the answer
/// gains `"kaspa": {"accepted": true, "node": URL}` or `{"accepted": false, "reason": TEXT}`.
struct RelayController: Sendable {
    let store: any RelayStore
    let hub: RelayHub
    let clock: any WallClock
    /// Nil when rate limiting is off (tests that submit in bulk).
    let limiter: TokenBucketLimiter?
    /// Parsed keys of recent senders, shared by every submission this server handles.
    let senderKeys = SenderKeyCache()
    /// Submits signed Kaspa transactions to the node too, when the server follows one.
    var bridge: KaspaBridge? = nil

    func register(on router: Router<TandemRequestContext>, table: RouteTable) {
        table.add(router, .post, APIPath.kasiaTransactions) { request, context in
            try await submit(request, context: context)
        }
    }

    func submit(_ request: Request, context: TandemRequestContext) async throws -> Response {
        try await admit { "client|" + RateLimiter.clientKey(context.clientAddress) }
        let draft: KasiaRecordDraft
        let sender: KaspaAddress
        var transaction: KaspaTransaction?
        switch try await Self.decode(request) {
        case .signed(let submission):
            let check = try RelaySubmissionCheck(submission, keys: senderKeys)
            draft = try check.draft()
            sender = check.sender
        case .kaspa(let submission):
            let check = try RelayKaspaSubmissionCheck(submission)
            let checked = try check.draft()
            draft = checked.draft
            sender = checked.sender
            transaction = check.transaction
        }
        // The address is re-encoded to its text only when a limiter needs the key.
        try await admit { "sender|" + sender.description }
        let outcome = try await store.appendKasiaRecord(draft, now: clock.now)
        if case .inserted = outcome { await hub.pokeIfListening() }
        // Stored first: the relay's answer never depends on the node's. Then the node's verdict.
        var bridged: KaspaBridge.Outcome?
        if let bridge, let transaction { bridged = await bridge.submit(transaction) }
        return JSONResponse.raw(IndexerRowJSON.receipt(outcome.record, kaspa: bridged), status: .ok, headers: [:])
    }

    /// `key` is built only when a limiter is configured (no string work per submission when
    /// rate limiting is off).
    private func admit(_ key: () -> String) async throws {
        guard let limiter, let retry = await limiter.admit([key()]) else { return }
        var headers = HTTPFields()
        headers[.retryAfter] = String(retry)
        throw APIFailure(
            .tooManyRequests, .rateLimited, "Too many submissions. Retry after \(retry) s.", headers: headers)
    }

    /// The two submission forms: the relay's signed payload, or a signed Kaspa transaction.
    enum Body {
        case signed(RelaySubmission)
        case kaspa(KaspaTransaction)
    }

    /// Reads the body under the server's caps and parses it once with the strict parser
    /// (``RelaySubmissionReader``); `nonce` and `amount` keep all 64 bits from the parser's
    /// exact integers. A body with a `transaction` member is the Kaspa form (issue 15 item 4),
    /// which Foundation decodes into its nested SDK types.
    static func decode(_ request: Request) async throws -> Body {
        guard let buffer = try await JSONBody.collect(request) else {
            throw APIFailure.validation(["[body] Invalid input: expected object, received undefined"])
        }
        let parsed = try JSONBody.parseKeepingIntegers(buffer)
        if case .object(let object) = parsed.value, object["transaction"] != nil {
            return .kaspa(try decodeKaspa(buffer))
        }
        return .signed(try RelaySubmissionReader.read(parsed.value, integers: parsed.integers))
    }

    /// ``RelayKaspaSubmission``'s form, read by KaspaTransaction's strict reader (hex, lengths,
    /// version-0 fields) rather than the DTO's plain strings.
    struct KaspaBody: Decodable {
        let transaction: KaspaTransaction

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: RelayKaspaSubmission.Field.self)
            transaction = try container.decode(KaspaTransaction.self, forKey: .transaction)
        }
    }

    private static func decodeKaspa(_ buffer: ByteBuffer) throws -> KaspaTransaction {
        do {
            return try JSONDecoder().decode(KaspaBody.self, from: Data(buffer.readableBytesView)).transaction
        } catch let error as DecodingError {
            throw APIFailure.validation([Self.issue(error)])
        }
    }

    /// A zod-style issue naming the field a decoding error is about.
    private static func issue(_ error: DecodingError) -> String {
        let (path, reason): ([any CodingKey], String) =
            switch error {
            case .keyNotFound(let key, let context): (context.codingPath + [key], "Required")
            case .typeMismatch(let type, let context): (context.codingPath, "expected \(type)")
            case .valueNotFound(let type, let context): (context.codingPath, "expected \(type), received null")
            case .dataCorrupted(let context): (context.codingPath, context.debugDescription)
            @unknown default: ([], "invalid")
            }
        let field = (["body"] + path.map(\.stringValue)).joined(separator: ".")
        return "[\(field)] Invalid input: \(reason)"
    }
}
