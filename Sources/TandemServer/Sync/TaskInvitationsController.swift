import CanonicalJSON
import Foundation
import Hummingbird
import RedoProtocol
import TandemAPI
import TandemBasics
import TandemServerStore

/// `GET /api/redo/invitations`, `POST /api/redo/invitations/{taskId}/accept|decline` (issue 50
/// item 6): a share from an account the recipient has not accepted a share from before waits
/// here, so nobody's task list fills with tasks from strangers. Accepting one gives the task
/// and lets the sharer's later shares through without asking; declining removes it quietly.
struct TaskInvitationsController: Sendable {
    let store: any SyncStore
    let clock: any WallClock
    /// Accepting gives the task, a write that takes the sync clock.
    let gate: SyncWriteGate

    func register(on group: RouterGroup<AuthenticatedRequestContext>, table: RouteTable) {
        table.add(group, .get, "redo/invitations", fullPath: APIPath.taskInvitations) { _, context in
            try await list(context)
        }
        table.add(
            group, .post, "redo/invitations/:taskId/accept", fullPath: APIPath.taskInvitations + "/{taskId}/accept"
        ) { _, context in
            try await answer(context, accept: true)
        }
        table.add(
            group, .post, "redo/invitations/:taskId/decline", fullPath: APIPath.taskInvitations + "/{taskId}/decline"
        ) { _, context in
            try await answer(context, accept: false)
        }
    }

    func list(_ context: AuthenticatedRequestContext) async throws -> Response {
        let stored = try await store.taskInvitations(
            recipient: AccountID(context.session.user.id), limit: TaskInvitationLimits.listed)
        let invitations = stored.map { invitation in
            TaskInvitation(
                taskId: invitation.taskID, from: invitation.sharerUsername,
                title: invitation.firstNode.flatMap(Self.title(ofCreate:)),
                createdAt: invitation.createdAt.date)
        }
        return try JSONResponse.make(TaskInvitationsResponse(invitations: invitations))
    }

    func answer(_ context: AuthenticatedRequestContext, accept: Bool) async throws -> Response {
        let recipient = AccountID(context.session.user.id)
        let taskID = context.parameters.get("taskId") ?? ""
        let notFound = APIFailure(.notFound, .invitationNotFound, "no invitation to this task waits for this account")
        guard TaskID(taskID) != nil else { throw notFound }
        let outcome =
            accept
            ? try await gate.run(account: recipient.rawValue) {
                try await store.acceptTaskInvitation(taskID: taskID, recipient: recipient, now: clock.now)
            }
            : try await store.declineTaskInvitation(taskID: taskID, recipient: recipient)
        switch outcome {
        case .notFound: throw notFound
        case .accepted(let from, let added):
            return try JSONResponse.make(TaskInvitationAnswer(taskId: taskID, from: from, accepted: true, added: added))
        case .declined(let from):
            return try JSONResponse.make(
                TaskInvitationAnswer(taskId: taskID, from: from, accepted: false, added: false))
        }
    }

    /// The title of a stored `CREATE` node (`data.payload.title`), as written by its author;
    /// nil for any other node or text.
    static func title(ofCreate node: [UInt8]) -> String? {
        guard case .object(let object)? = try? CanonicalJSON.parse(node),
            case .string("CREATE")? = object["action"],
            case .object(let data)? = object["data"],
            case .object(let payload)? = data["payload"],
            case .string(let title)? = payload["title"]
        else { return nil }
        return title
    }
}
