public import Foundation
public import TandemAPI
public import TandemAccounts

/// The relay's HTTP surface over the ``HTTPTransport`` seam (issue 11 items 1–2): signed
/// submissions, and the kasia-indexer-compatible reads under `/kasia` (``indexer``). The live
/// stream is ``RelayEventStream``.
public struct RelayClient: Sendable {
    public let server: URL
    /// The relay's kasia-indexer reads, under `/kasia`. Submissions share its HTTP exchange.
    public let indexer: KasiaIndexerClient

    public init(server: URL, transport: any HTTPTransport, paging: IndexerPaging = IndexerPaging()) {
        self.server = server
        indexer = KasiaIndexerClient(server: server, root: APIPath.kasiaPrefix, transport: transport, paging: paging)
    }

    /// `POST /kasia/transactions`. A resubmission of the same signed content answers the same
    /// receipt, so retrying after a lost answer is safe.
    public func submit(_ submission: RelaySubmission) async throws(RelayClientError) -> RelayReceipt {
        try await post(submission)
    }

    /// `POST /kasia/transactions` with a signed Kaspa transaction instead (issue 15 item 4).
    public func submit(_ submission: RelayKaspaSubmission) async throws(RelayClientError) -> RelayReceipt {
        try await post(submission)
    }

    private func post(_ submission: some Encodable) async throws(RelayClientError) -> RelayReceipt {
        let body: Data
        do { body = try APIJSON.encoder().encode(submission) } catch {
            throw .invalidResponse(path: APIPath.kasiaTransactions, reason: "cannot encode the submission")
        }
        var headers: [(name: String, value: String)] = [
            (name: "Accept", value: "application/json"), (name: "Content-Type", value: "application/json"),
        ]
        if let origin = AccountClient.origin(of: server) { headers.append((name: "Origin", value: origin)) }
        let response = try await indexer.exchange(
            TransportRequest(
                method: "POST", url: indexer.url(APIPath.kasiaTransactions, query: []), headers: headers, body: body))
        guard (200..<300).contains(response.status) else { throw Self.refusal(response) }
        return try KasiaIndexerClient.decode(RelayReceipt.self, response.body, path: APIPath.kasiaTransactions)
    }

    static func refusal(_ response: TransportResponse) -> RelayClientError {
        let body = try? APIJSON.decoder().decode(APIErrorBody.self, from: response.body)
        let message = body?.message ?? "no error body"
        if response.status == 429 || body?.knownCode == .rateLimited {
            let seconds = response.values(of: "Retry-After").first.flatMap {
                UInt64($0.trimmingCharacters(in: .whitespaces))
            }
            return .rateLimited(retryAfterSeconds: seconds, message: message)
        }
        return .refused(status: response.status, code: body?.knownCode, message: message)
    }
}
