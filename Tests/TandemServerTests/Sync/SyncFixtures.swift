import CanonicalJSON
import Foundation
import HTTPTypes
import RedoProtocol
import TandemAPI
import TandemBasics
import TandemTesting
import Testing

/// An account on a test server: its session cookie, account id and a device key.
struct SyncAccount {
    let client: APIClient
    let cookie: String
    let userID: String
    let key: SigningKey

    /// Signs up `username` and binds a fresh device key to the account.
    static func make(_ client: APIClient, _ username: String, key: SigningKey = SigningKey()) async throws
        -> SyncAccount
    {
        let answer = try await client.signUp(username)
        let cookie = try #require(answer.sessionCookie)
        let user = try #require(answer.json?["user"] as? [String: Any])
        let account = SyncAccount(client: client, cookie: cookie, userID: try #require(user["id"] as? String), key: key)
        let bound = try await account.bind(key)
        #expect(bound.status == .created)
        return account
    }

    /// `POST /api/me/keys` with a valid proof for this account.
    func bind(_ key: SigningKey) async throws -> APIClient.Answer {
        let publicKey = key.publicKey.description
        let signature = key.signature(for: DeviceKeyBinding.message(userID: userID, publicKey: publicKey))
        return try await client.sync(
            .post, APIPath.myKeys, json: #"{"publicKey":"\#(publicKey)","signature":"\#(signature)"}"#, cookie: cookie)
    }

    /// `POST /api/redo/nodes` with these node texts; the per-node results.
    func push(_ texts: [String]) async throws -> [RedoNodePushResult] {
        let answer = try await client.sync(
            .post, APIPath.redoNodes, json: #"{"nodes":["# + texts.joined(separator: ",") + "]}", cookie: cookie)
        #expect(answer.status == .ok, "\(answer.text)")
        return try answer.decode(RedoNodePushResponse.self).results
    }

    func push(_ nodes: [RedoNode]) async throws -> [RedoNodePushResult] {
        try await push(nodes.map(SyncNodes.text))
    }

    /// Every node id of the account's feed, paging with the cursor.
    func pullAll(limit: Int = 3) async throws -> [String] {
        var ids: [String] = []
        var cursor: String?
        while true {
            let query = "limit=\(limit)" + (cursor.map { "&after=\($0)" } ?? "")
            let answer = try await client.sync(.get, APIPath.redoNodes + "?" + query, cookie: cookie)
            #expect(answer.status == .ok, "\(answer.text)")
            let page = try #require(answer.json)
            let nodes = try #require(page["nodes"] as? [[String: Any]])
            ids += nodes.compactMap { $0["id"] as? String }
            cursor = try #require(page["cursor"] as? String)
            if page["hasMore"] as? Bool != true { return ids }
        }
    }
}

/// Signed nodes for the sync tests.
enum SyncNodes {
    static let wall = WallTime(millisecondsSinceEpoch: 1_800_000_000_000)!

    static func text(_ node: RedoNode) -> String {
        String(decoding: (try? CanonicalJSON.canonicalBytes(of: .object(node.json))) ?? [], as: UTF8.self)
    }

    /// How many tasks this process has made, so each gets its own id.
    private static let made = Locked<UInt64>(0)

    /// A CREATE of a new task by `key`. The task id is drawn from a generator seeded by the key
    /// (fresh in every test) and this process's count of tasks, so it is new without an
    /// unseeded random source.
    static func create(_ key: SigningKey, title: String = "task") throws -> RedoNode {
        let serial = made.withLock { count in
            count += 1
            return count
        }
        let keyWord = key.seed.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var generator = SeededRandom(seed: keyWord ^ serial)
        let taskID = TaskID(randomBytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let payload = try NodePayload.create(TaskFieldChanges(title: title)).jsonObject()
        return try NodeDraft(
            taskID: taskID, action: .create, payload: payload, parents: [], lamport: 1, wall: wall,
            author: author(key)
        ).node(signedWith: key)
    }

    /// An UPDATE of `parent`'s task by `key`, child of `parent`.
    static func update(_ parent: RedoNode, by key: SigningKey, title: String) throws -> RedoNode {
        let payload = try NodePayload.update(TaskFieldChanges(title: title)).jsonObject()
        return try NodeDraft(
            taskID: parent.taskID, action: .update, payload: payload, parents: [parent.id],
            lamport: parent.lamport + 1, wall: wall, author: author(key)
        ).node(signedWith: key)
    }

    static func author(_ key: SigningKey) -> Author {
        Author(publicKey: key.publicKey, deviceID: DeviceID("test-device")!)
    }
}

extension APIClient {
    /// A request as a native client sends it: state-changing ones carry the trusted app origin
    /// (cookie-bearing writes need one, betterauth-api.md §10).
    func sync(_ method: HTTPRequest.Method, _ path: String, json: String? = nil, cookie: String? = nil) async throws
        -> Answer
    {
        try await send(method, path, json: json, cookie: cookie, origin: method == .get ? nil : "myapp://")
    }
}
