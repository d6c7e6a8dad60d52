import CanonicalJSON
import Foundation
import Hummingbird
import NIOCore
import TandemAPI

/// Caps and shared readers of the sync routes (issue 12).
enum SyncLimits {
    /// Largest sync request body: 500 nodes of a few KB each fit many times over; a single node's
    /// payload may reach 1 MiB (spec §6.4), so the client sends big nodes in small batches.
    static let maxBodyBytes = 8 * 1024 * 1024
    /// Nodes nest deeper than auth bodies (`nodes[].data.payload.…`).
    static let maxJSONDepth = 64
    /// Nodes per `POST /api/redo/nodes` (issue 12 item 2).
    static let maxNodesPerPush = 500
    /// Records per `PUT /api/contacts/records`.
    static let maxRecordsPerPut = 500
    /// A sealed contact record is a few hundred bytes; 16 KiB leaves room for long aliases.
    static let maxBoxBytes = 16 * 1024
    /// Page sizes of the pull routes.
    static let defaultPageSize = 500
    static let maxPageSize = 1000

    /// The parsed body under the sync caps; a missing body is a 400.
    static func readJSON(_ request: Request) async throws -> JSONValue {
        try await readJSON(request, notingElementsOf: nil).value
    }

    /// ``readJSON(_:)``, and with a member name the canonical texts of that array member's
    /// elements (`JSONParser.parseNotingElements`): a push keeps the nodes sent in canonical form
    /// as they came.
    static func readJSON(_ request: Request, notingElementsOf member: String?) async throws -> (
        value: JSONValue, elements: [ElementText]
    ) {
        guard let buffer = try await JSONBody.collect(request, limit: maxBodyBytes) else {
            throw APIFailure.validation(["[body] Invalid input: expected object, received undefined"])
        }
        let limits = JSONParser.Limits(maxBytes: maxBodyBytes, maxDepth: maxJSONDepth)
        do {
            let parser = JSONParser(limits: limits)
            guard let member else { return (try parser.parse(buffer.readableBytesView), []) }
            return try parser.parseNotingElements(buffer.readableBytesView, ofMember: member)
        } catch .nestingTooDeep(let limit) {
            throw APIFailure(.badRequest, .badRequest, "JSON nests deeper than \(limit) levels")
        } catch {
            throw APIFailure.invalidJSON
        }
    }

    /// `after` (an opaque cursor this server issued: the decimal feed position) and `limit`.
    static func page(_ request: Request) throws -> (after: Int64, limit: Int) {
        let parameters = request.uri.queryParameters
        var after: Int64 = 0
        if let text = parameters["after"].map(String.init), !text.isEmpty {
            guard text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int64(text) else {
                throw APIFailure(.badRequest, .invalidCursor, "after is not a cursor this server issued")
            }
            after = value
        }
        var limit = defaultPageSize
        if let text = parameters["limit"].map(String.init) {
            guard let value = Int(text), (1...maxPageSize).contains(value) else {
                throw APIFailure.validation(["[query.limit] must be an integer from 1 to \(maxPageSize)"])
            }
            limit = value
        }
        return (after, limit)
    }

    static func cursor(_ seq: Int64) -> String { String(seq) }
}
