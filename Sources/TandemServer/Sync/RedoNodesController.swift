import CanonicalJSON
import Foundation
import Hummingbird
import NIOCore
import RedoProtocol
import TandemAPI
import TandemBasics
import TandemServerStore

/// `POST/GET /api/redo/nodes` and `POST /api/redo/tasks/{taskId}/share` (issue 12 item 2; a
/// share to someone who has not accepted the sharer before waits as an invitation,
/// `TaskInvitationsController`).
///
/// A push is checked node by node — the standalone checks of spec §6.2 with a required
/// signature (on every core, results in push order), then the author key against the
/// account's live device keys — and the survivors go to the store in one transaction for the
/// contextual checks, so one bad node never blocks the good ones. A pull answers the account's
/// feed after the cursor, in server order.
struct RedoNodesController: Sendable {
    let store: any AccountStore & SyncStore
    let clock: any WallClock
    /// Shared by every sync controller of the router: the writes that take the sync clock.
    let gate: SyncWriteGate
    /// What one account's pushed nodes may take (issue 50 item 6).
    var quota = SyncQuotas().nodes
    /// Each sharer's pace of shares (`SyncWriteLimits.shareBurst`); nil without rate limits.
    var shares: TokenBucketLimiter?

    static let validator = NodeValidator(signaturePolicy: .required)

    func register(on group: RouterGroup<AuthenticatedRequestContext>, table: RouteTable) {
        table.add(group, .post, "redo/nodes", fullPath: APIPath.redoNodes) { request, context in
            try await push(request, context: context)
        }
        table.add(group, .get, "redo/nodes", fullPath: APIPath.redoNodes) { request, context in
            try await pull(request, context: context)
        }
        table.add(
            group, .post, "redo/tasks/:taskId/share", fullPath: "/api/redo/tasks/{taskId}/share"
        ) { request, context in
            try await share(request, context: context)
        }
    }

    func push(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let resolved = context.session
        let userID = AccountID(resolved.user.id)
        let read = try await SyncLimits.readJSON(request, notingElementsOf: "nodes")
        guard case .object(let body) = read.value, case .array(let elements)? = body["nodes"] else {
            throw APIFailure.validation(["[body.nodes] Invalid input: expected array"])
        }
        // Each node's text as sent, when it was canonical: stored as it came, not written again.
        let texts = read.elements.count == elements.count ? read.elements.map(\.canonicalText) : []
        guard elements.count <= SyncLimits.maxNodesPerPush else {
            throw APIFailure(
                .badRequest, .tooManyItems, "at most \(SyncLimits.maxNodesPerPush) nodes per request")
        }
        let liveKeys = Set(try await store.deviceKeys(userID: userID).filter { $0.revokedAt == nil }.map(\.publicKey))
        var results: [RedoNodePushResult] = []
        var drafts: [RedoNodeDraft] = []
        var draftSlots: [Int] = []
        // The standalone checks, signature included, on every core before the single writer
        // (issue 12 "Figures": accepted nodes/s against raw Ed25519 verifies/s).
        let verdicts = await Self.validator.validateConcurrently(elements)
        for (index, (element, verdict)) in zip(elements, verdicts).enumerated() {
            let claimedID = Self.claimedID(element)
            let node: RedoNode
            switch verdict {
            case .success(let valid): node = valid
            case .failure(let error):
                results.append(
                    .init(id: claimedID, status: .rejected, code: error.code.rawValue, message: error.detail))
                continue
            }
            guard liveKeys.contains(node.author.publicKey.description) else {
                results.append(
                    .init(
                        id: claimedID, status: .rejected, code: RedoSyncCode.keyNotRegistered,
                        message: "author.publicKey is not a live device key of this account"))
                continue
            }
            draftSlots.append(results.count)
            results.append(.init(id: node.id.description, status: .accepted))
            drafts.append(
                RedoNodeDraft(
                    id: node.id.description, taskID: node.taskID.description, isCreate: node.action == .create,
                    parents: node.parents.map(\.description), authorKey: node.author.publicKey.description,
                    json: try (texts.isEmpty ? nil : texts[index])
                        ?? CanonicalJSON.canonicalBytes(of: .object(node.json))
                ))
        }
        if !drafts.isEmpty {
            let outcomes = try await gate.run(account: userID.rawValue) {
                try await store.appendRedoNodes(drafts, userID: userID, now: clock.now, quota: quota)
            }
            for (slot, outcome) in zip(draftSlots, outcomes) {
                switch outcome {
                case .accepted: break
                case .duplicate: results[slot].status = .duplicate
                case .rejected(let rejection):
                    results[slot].status = .rejected
                    results[slot].code = rejection.code
                }
            }
        }
        return JSONResponse.raw(
            WireJSON.redoNodePushResponse(RedoNodePushResponse(results: results)), status: .ok, headers: [:])
    }

    func pull(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let resolved = context.session
        let (after, limit) = try SyncLimits.page(request)
        var nodes = try await store.redoNodes(
            userID: AccountID(resolved.user.id), after: after, limit: limit + 1)
        let hasMore = nodes.count > limit
        if hasMore { nodes.removeLast() }
        // The stored texts are canonical JSON already, so the page is spliced, not re-encoded.
        var out: [UInt8] = []
        out.reserveCapacity(nodes.reduce(64) { $0 + $1.json.count + 1 })
        out += Array(#"{"cursor":""#.utf8)
        out += Array(SyncLimits.cursor(nodes.last?.seq ?? after).utf8)
        out += Array(#"","hasMore":"#.utf8)
        out += Array((hasMore ? "true" : "false").utf8)
        out += Array(#","nodes":["#.utf8)
        for (index, node) in nodes.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += node.json
        }
        out += Array("]}".utf8)
        return JSONResponse.raw(out, status: .ok, headers: [:])
    }

    func share(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let resolved = context.session
        let taskID = context.parameters.get("taskId") ?? ""
        var fields = try TaskShareRequest.fields(of: try await JSONBody.read(request))
        let body = try fields.decode { fields in fields.string(.username).map(TaskShareRequest.init(username:)) }
        let notFound = APIFailure(.notFound, .taskNotFound, "no such task, or this account cannot read it")
        guard TaskID(taskID) != nil else { throw notFound }
        let username = body.username.lowercased()
        guard let recipient = try await store.user(username: username) else {
            throw APIFailure(.notFound, .userNotFound, "no account has this username")
        }
        if let shares, let wait = await shares.admit([resolved.user.id]) {
            throw APIFailure(
                .tooManyRequests, .rateLimited, "Too many shares from this account; retry after \(wait) s.",
                headers: [.retryAfter: String(wait)])
        }
        let outcome = try await gate.run(account: resolved.user.id) {
            try await store.shareRedoTask(
                taskID: taskID, sharer: AccountID(resolved.user.id),
                recipient: AccountID(recipient.id), now: clock.now)
        }
        switch outcome {
        case .notFound: throw notFound
        case .added: return try JSONResponse.make(TaskShareResponse(taskId: taskID, username: username, added: true))
        case .alreadyShared:
            return try JSONResponse.make(TaskShareResponse(taskId: taskID, username: username, added: false))
        case .invited:
            return try JSONResponse.make(
                TaskShareResponse(taskId: taskID, username: username, added: false, invited: true))
        }
    }

    /// The `id` a rejected element claims, for the answer; empty when it has none.
    private static func claimedID(_ element: JSONValue) -> String {
        if case .object(let object) = element, case .string(let id)? = object["id"] { return id }
        return ""
    }
}
