import CanonicalJSON
public import Foundation
import RedoProtocol
public import TandemAPI
public import TandemAccounts
public import TaskStore

/// Syncs the profile's Redo log through the server (issue 12 item 4, spec §11.3): pull the
/// account's nodes after the cursor and validate each on receipt, then push every node the
/// server lacks, in log order. The log stays the truth: offline edits never wait for a sync,
/// an interrupted run resumes where it stopped (cursor saved per page, marks per batch), and a
/// node the server refuses for a missing parent stays pending and is pushed again next run.
public struct TaskSync: Sendable, SyncEngine {
    public let client: AccountClient
    public let editor: TaskEditor
    let stateURL: URL
    public var retry = SyncRetryPolicy()
    /// Nodes per pull page (the server allows up to 1000).
    public var pageSize = 1000
    /// Nodes of a page validated together (issue 12 "Figures"); a quarter of a full page. A page
    /// is stored in one transaction once all its parts are validated, the last page part by part.
    public var partSize = 250
    /// Nodes per push (the server allows up to 500), and a byte budget for big payloads.
    public var batchSize = 500
    public var batchBytes = 4 * 1024 * 1024

    public init(client: AccountClient, editor: TaskEditor, stateURL: URL) {
        self.client = client
        self.editor = editor
        self.stateURL = stateURL
    }

    static let validator = NodeValidator(signaturePolicy: .required)

    /// One full sync: bind the key on first use, pull, push.
    public func run(progress: (@Sendable (SyncProgress) -> Void)? = nil) async throws(SyncError) -> TaskSyncReport {
        var state = try loadState()
        let accountID = try await call { () async throws(AccountClientError) in try await client.accountID() }
        let server = client.server.absoluteString
        if state.server != server || state.accountID != accountID {
            try local { try editor.log.clearRemoteMarks() }
            state = TaskSyncState()
            state.server = server
            state.accountID = accountID
        }
        let publicKey = editor.identity.key.publicKey.description
        if state.registeredKey != publicKey {
            try await registerKey(accountID: accountID)
            state.registeredKey = publicKey
            try save(state)
        }
        var report = TaskSyncReport()
        try await pull(&state, report: &report, progress: progress)
        if state.accountKeys == nil || report.pulled > 0 {
            try await refreshAccountKeys(&state)
        }
        try await push(&report)
        return report
    }

    /// Remembers the `author.userId` of every device key of the account (revoked ones too: what
    /// they signed is still the account's), so a query's "mine" covers the account's other
    /// devices offline (issue 27). Asked again whenever a pull brought nodes, which is when a
    /// key not seen before can appear.
    private func refreshAccountKeys(_ state: inout TaskSyncState) async throws(SyncError) {
        let keys = try await call { () async throws(AccountClientError) in try await client.deviceKeys() }
        state.accountKeys = keys.map { String($0.publicKey.lowercased().prefix(32)) }.sorted()
        try save(state)
    }

    /// Shares a task with another account (`tandem tasks share`), after pushing it so the
    /// server knows it.
    public func share(_ reference: String, with username: String) async throws(SyncError) -> TaskShareResponse {
        let taskID: TaskID
        do { taskID = try editor.history(reference)[0].taskID } catch { throw .store(String(describing: error)) }
        _ = try await run()
        return try await call { () async throws(AccountClientError) in
            try await client.shareTask(taskID, with: username)
        }
    }

    /// The shares waiting for this account's answer (`tandem tasks invitations`, issue 50
    /// item 6): from accounts it has not accepted a share from before.
    public func invitations() async throws(SyncError) -> [TaskInvitation] {
        try await call { () async throws(AccountClientError) in try await client.taskInvitations() }
    }

    /// Accepts or declines the invitation to the task `reference` names (its id, or a prefix
    /// unique among the invitations). An accepted task is pulled at once; the sharer's later
    /// shares arrive without asking.
    public func answer(_ reference: String, accept: Bool) async throws(SyncError) -> TaskInvitationAnswer {
        let taskID = try await invitedTask(reference)
        let answer = try await call { () async throws(AccountClientError) in
            try await client.answerTaskInvitation(taskID, accept: accept)
        }
        if accept { _ = try await run() }
        return answer
    }

    /// The task id `reference` names: a whole id as it is, else the one invitation whose id
    /// starts with it.
    private func invitedTask(_ reference: String) async throws(SyncError) -> TaskID {
        let text = reference.lowercased()
        if let id = TaskID(text) { return id }
        let matches = try await invitations().filter { $0.taskId.hasPrefix(text) }
        guard !text.isEmpty, matches.count == 1, let id = TaskID(matches[0].taskId) else {
            throw .store(
                matches.count > 1
                    ? "\(reference) matches \(matches.count) invitations; give more of the task id"
                    : "no invitation to a task \(reference)…; see tandem tasks invitations")
        }
        return id
    }

    private func registerKey(accountID: String) async throws(SyncError) {
        do {
            _ = try await retry.run { () async throws(AccountClientError) in
                try await client.registerDeviceKey(editor.identity.key, accountID: accountID)
            }
        } catch .server(409, .keyBelongsToAnotherAccount?, _) {
            throw .keyBoundToAnotherAccount(publicKey: editor.identity.key.publicKey.description)
        } catch { throw .account(error) }
    }

    private func push(_ report: inout TaskSyncReport) async throws(SyncError) {
        let pending = try local { try editor.log.unsyncedTexts() }
        var start = 0
        while start < pending.count {
            var end = start
            var bytes = 0
            while end < pending.count, end - start < batchSize,
                end == start || bytes + pending[end].json.count <= batchBytes
            {
                bytes += pending[end].json.count
                end += 1
            }
            let batch = Array(pending[start..<end])
            let results = try await call { () async throws(AccountClientError) in
                try await client.pushNodes(batch.map(\.json))
            }
            guard results.count == batch.count else {
                throw .invalidPage("\(results.count) results for \(batch.count) nodes")
            }
            var held: [String] = []
            for (node, result) in zip(batch, results) {
                switch result.status {
                case .accepted:
                    report.pushed += 1
                    held.append(node.id)
                case .duplicate:
                    report.alreadyOnServer += 1
                    held.append(node.id)
                case .rejected where result.code == RedoCode.parentNotFound.rawValue:
                    report.pending += 1
                case .rejected:
                    report.rejected.append(result)
                }
            }
            try local { try editor.log.markRemote(held) }
            start = end
        }
    }

    struct Page: Sendable {
        let nodes: [JSONValue]
        let cursor: String
        let hasMore: Bool
    }

    static func parse(_ data: Data) throws(SyncError) -> Page {
        let limits = JSONParser.Limits(maxBytes: max(data.count, 1), maxDepth: 64)
        guard case .object(let object)? = try? JSONParser(limits: limits).parse(data),
            case .array(let nodes)? = object["nodes"], case .string(let cursor)? = object["cursor"],
            case .bool(let hasMore)? = object["hasMore"]
        else { throw .invalidPage("not {nodes, cursor, hasMore}") }
        return Page(nodes: nodes, cursor: cursor, hasMore: hasMore)
    }

    private func loadState() throws(SyncError) -> TaskSyncState {
        try local { try SyncStateFile.load(TaskSyncState.self, from: stateURL, fresh: TaskSyncState()) }
    }

    func save(_ state: TaskSyncState) throws(SyncError) {
        try local { try SyncStateFile.save(state, to: stateURL) }
    }
}

/// What one task sync did.
public struct TaskSyncReport: Sendable, Equatable, Codable {
    /// Valid nodes received (new or already held).
    public var pulled = 0
    /// Received nodes that failed validation and were dropped.
    public var invalidReceived = 0
    /// Nodes the server accepted now.
    public var pushed = 0
    /// Nodes the server already held (a resumed or repeated push).
    public var alreadyOnServer = 0
    /// Nodes refused for a parent the server lacks; pushed again next run.
    public var pending = 0
    /// Nodes refused for good, with their codes.
    public var rejected: [RedoNodePushResult] = []

    public init() {}
}
