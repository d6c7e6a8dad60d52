import CanonicalJSON
import Contacts
import Foundation
import KaspaCrypto
import RedoProtocol
import TandemAPI
import TandemAccounts
import TandemBasics
import TandemProfile
import TandemSync
import TandemTesting
import TandemWallet
import TaskStore
import TestSupport

/// One device in the sync tests: a profile of its own, signed in to `server` as `username`,
/// with the account's wallet key (contacts are the wallet's) and its own Ed25519 device key.
struct SyncDevice {
    let directory: TemporaryDirectory
    let profile: Profile
    let server: URL
    let editor: TaskEditor
    let contacts: ContactsStore
    let presets: TaskPresets
    let wallet: ContactAddress

    static let password = "correct horse battery"

    init(server: URL, username: String, walletKey: PrivateKey, signUp: Bool) async throws {
        directory = try TemporaryDirectory()
        profile = Profile(directory: directory.url.appendingPathComponent("profile"))
        self.server = server
        _ = try profile.importWalletKey(walletKey)
        let client = AccountClient(server: server, profile: profile, transport: URLSessionTransport())
        if signUp {
            _ = try await client.signUp(
                username: username, email: "\(username)@example.com", name: username, password: Self.password)
        } else {
            _ = try await client.signIn(username: username, password: Self.password)
        }
        editor = try profile.openTasks()
        contacts = try profile.openContacts()
        presets = try profile.openTaskPresets()
        wallet = ContactAddress(KaspaAddress(publicKey: walletKey.xOnlyPublicKey))
    }

    func taskSync(_ transport: any HTTPTransport = URLSessionTransport(), retry: SyncRetryPolicy = .none) throws
        -> TaskSync
    {
        var engine = try profile.taskSync(server: server, transport: transport)
        engine.retry = retry
        engine.pageSize = 7
        engine.partSize = 3
        engine.batchSize = 5
        return engine
    }

    func contactsSync(_ transport: any HTTPTransport = URLSessionTransport(), retry: SyncRetryPolicy = .none) throws
        -> ContactsSync
    {
        var engine = try profile.contactsSync(server: server, transport: transport)
        engine.retry = retry
        engine.pageSize = 3
        engine.batchSize = 4
        return engine
    }

    func presetSync(_ transport: any HTTPTransport = URLSessionTransport(), retry: SyncRetryPolicy = .none) throws
        -> PresetSync
    {
        var engine = try profile.presetSync(server: server, transport: transport)
        engine.retry = retry
        engine.pageSize = 2
        engine.batchSize = 2
        return engine
    }

    /// `count` offline tasks (one CREATE each, ids from `seed`), appended to the log in one go.
    func appendOfflineTasks(_ count: Int, seed: UInt64) throws -> [RedoNode] {
        guard let wall = WallTime(millisecondsSinceEpoch: 1_800_000_000_000) else { return [] }
        var generator = SeededRandom(seed: seed)
        let nodes = try (0..<count).map { index in
            let taskID = TaskID(randomBytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
            return try NodeDraft(
                taskID: taskID, action: .create,
                payload: try NodePayload.create(TaskFieldChanges(title: "task \(index)")).jsonObject(), parents: [],
                lamport: 1, wall: wall, author: editor.identity.author
            ).node(signedWith: editor.identity.key)
        }
        try editor.log.append(nodes)
        return nodes
    }

    /// Replayed state as canonical JSON text, for comparing devices.
    func stateText() throws -> String {
        String(decoding: try CanonicalJSON.canonicalBytes(of: try editor.state().jsonValue), as: UTF8.self)
    }

    func contactList() throws -> [Contact] { try contacts.contacts(wallet: wallet, includeDeleted: true) }
}

/// A transport that delivers `budget` requests and then fails: before sending, or after
/// sending with the answer lost (the server did the work, the client never heard).
final class FlakyTransport: HTTPTransport {
    private let base = URLSessionTransport()
    private let remaining: Locked<Int>
    let loseAnswers: Bool

    struct Interrupted: Error {}

    init(budget: Int, loseAnswers: Bool) {
        remaining = Locked(budget)
        self.loseAnswers = loseAnswers
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let allowed = remaining.withLock { value -> Bool in
            value -= 1
            return value >= 0
        }
        if allowed { return try await base.send(request) }
        if loseAnswers { _ = try await base.send(request) }
        throw Interrupted()
    }
}
