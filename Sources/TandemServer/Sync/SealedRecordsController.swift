import CanonicalJSON
import Foundation
import Hummingbird
import TandemAPI
import TandemBasics
import TandemServerStore

/// `GET/PUT /api/contacts/records` (issue 12 item 3), `GET/PUT /api/tasks/presets` (issue 27
/// item 3) and `GET/PUT /api/chat/history` (issue 48 item 1): one collection each of the account's end-to-end encrypted records. The server sees
/// record ids and ciphertext only (issue 7); a write names the version it merged from and is
/// refused with 409 when another device wrote first, so no accepted write is ever overwritten
/// blindly.
struct SealedRecordsController: Sendable {
    /// A collection's route; its codes are the collection's own.
    struct Route: Sendable {
        let collection: SealedRecordCollection
        /// Below `/api`, e.g. `contacts/records`.
        var path: String { String(fullPath.dropFirst("/api/".count)) }
        var fullPath: String { collection.path }
        var invalid: APIErrorCode { collection.invalidRecord }
        var conflict: APIErrorCode { collection.versionConflict }

        static let contacts = Route(collection: .contacts)
        static let taskPresets = Route(collection: .taskPresets)
        static let chatHistory = Route(collection: .chatHistory)
    }

    let route: Route
    let store: any SyncStore
    let gate: SyncWriteGate
    /// What one account may keep in this collection (issue 50 item 6).
    var quota = SyncQuota.unlimited

    func register(on group: RouterGroup<AuthenticatedRequestContext>, table: RouteTable) {
        table.add(group, .get, route.path, fullPath: route.fullPath) { request, context in
            try await pull(request, context: context)
        }
        table.add(group, .put, route.path, fullPath: route.fullPath) { request, context in
            try await put(request, context: context)
        }
    }

    func pull(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let resolved = context.session
        let (after, limit) = try SyncLimits.page(request)
        var records = try await store.sealedRecords(
            route.collection, userID: AccountID(resolved.user.id), after: after, limit: limit + 1)
        let hasMore = records.count > limit
        if hasMore { records.removeLast() }
        let page = WireJSON.sealedRecordPage(
            records, cursor: SyncLimits.cursor(records.last?.seq ?? after), hasMore: hasMore)
        return JSONResponse.raw(page, status: .ok, headers: [:])
    }

    func put(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let resolved = context.session
        guard case .object(let body) = try await SyncLimits.readJSON(request),
            case .array(let elements)? = body["records"]
        else { throw APIFailure.validation(["[body.records] Invalid input: expected array"]) }
        guard elements.count <= SyncLimits.maxRecordsPerPut else {
            throw APIFailure(
                .badRequest, .tooManyItems, "at most \(SyncLimits.maxRecordsPerPut) records per request")
        }
        var drafts: [SealedRecordDraft] = []
        var seen: Set<String> = []
        for (index, element) in elements.enumerated() {
            let draft = try Self.draft(element, index: index, invalid: route.invalid)
            guard seen.insert(draft.id).inserted else {
                throw APIFailure(.badRequest, route.invalid, "records[\(index)].id appears twice")
            }
            drafts.append(draft)
        }
        let outcome = try await gate.run(account: resolved.user.id) {
            try await store.putSealedRecords(
                route.collection, drafts, userID: AccountID(resolved.user.id), quota: quota)
        }
        switch outcome {
        case .written(let versions):
            return try JSONResponse.make(
                ContactRecordsPutResponse(
                    records: zip(drafts, versions).map { .init(id: $0.id, version: $1) }))
        case .conflict(let ids):
            throw APIFailure(
                .conflict, route.conflict,
                "stale baseVersion for \(ids.count) record(s): pull, merge and retry; first: \(ids[0])")
        }
    }

    static func draft(_ element: JSONValue, index: Int, invalid code: APIErrorCode) throws -> SealedRecordDraft {
        func invalid(_ reason: String) -> APIFailure {
            APIFailure(.badRequest, code, "records[\(index)]: \(reason)")
        }
        guard case .object(let object) = element else { throw invalid("expected an object") }
        guard case .string(let id)? = object["id"], Hex.decodeLowercase(id, byteCount: 32) != nil else {
            throw invalid("id must be 64 lowercase hex characters")
        }
        guard case .string(let text)? = object["box"], let box = Data(base64Encoded: text), !box.isEmpty,
            box.count <= SyncLimits.maxBoxBytes
        else { throw invalid("box must be base64 of 1 to \(SyncLimits.maxBoxBytes) bytes") }
        guard case .number(let number)? = object["baseVersion"], let base = Int64(exactly: number),
            base >= 0
        else { throw invalid("baseVersion must be a non-negative integer") }
        return SealedRecordDraft(id: id, box: box, baseVersion: base)
    }
}
