import Foundation
import HTTPTypes
import Hummingbird
import Logging
import TandemAPI
import TandemBasics

/// `POST /kasia/transactions`: signed Kasia payloads in, `{"tx_id","block_time"}` out
/// (issue 11 item 1). Every refusal is a 4xx `{code, message}` and stores nothing.
struct RelayController: Sendable {
    let store: any ServerStore
    let hub: RelayHub
    let clock: any WallClock
    /// Nil when rate limiting is off (tests that submit in bulk).
    let limiter: TokenBucketLimiter?

    func register(on router: Router<TandemRequestContext>, table: RouteTable) {
        table.add(router, .post, APIPath.kasiaTransactions) { request, context in
            try await submit(request, context: context)
        }
    }

    func submit(_ request: Request, context: TandemRequestContext) async throws -> Response {
        try await admit("client|" + RateLimiter.clientKey(context.clientAddress))
        let submission = try await Self.decode(request)
        let check = try RelaySubmissionCheck(submission)
        let draft = try check.draft()
        try await admit("sender|" + check.sender.description)
        let outcome = try await store.appendKasiaRecord(draft, now: clock.now)
        if case .inserted = outcome { await hub.poke() }
        return JSONResponse.raw(Data(IndexerRowJSON.receipt(outcome.record)), status: .ok, headers: [:])
    }

    private func admit(_ key: String) async throws {
        guard let limiter, let retry = await limiter.admit([key]) else { return }
        var headers = HTTPFields()
        headers[.retryAfter] = String(retry)
        throw APIFailure(
            .tooManyRequests, .rateLimited, "Too many submissions. Retry after \(retry) s.", headers: headers)
    }

    /// Reads the body under the server's caps, then decodes it with Foundation so `nonce` and
    /// `amount` keep all 64 bits (the strict parser's numbers are doubles).
    static func decode(_ request: Request) async throws -> RelaySubmission {
        guard let buffer = try await JSONBody.collect(request) else {
            throw APIFailure.validation(["[body] Invalid input: expected object, received undefined"])
        }
        var fields = BodyFields<RelaySubmission.Field>(try JSONBody.parse(buffer))
        guard fields.requireObject() else {
            try fields.throwIfInvalid()
            throw APIFailure.invalidJSON
        }
        do {
            return try JSONDecoder().decode(RelaySubmission.self, from: Data(buffer.readableBytesView))
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
