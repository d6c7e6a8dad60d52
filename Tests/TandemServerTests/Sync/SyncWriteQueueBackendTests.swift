import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO
import RedoProtocol
import TandemAPI
import TandemTesting
import TestSupport
import Testing

@testable import TandemServer
@testable import TandemServerStore

extension StoreContractTests {
    /// Session 7 (the SQLite regression of RELIABILITY.md): the sync writes queue in process on
    /// PostgreSQL only.
    @Test(arguments: backends)
    func syncWritesQueueInProcessOnPostgreSQLOnly(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            let queues = backend == .postgres
            #expect(store.queuesSyncWrites == queues)
            #expect(SyncWriteGate(for: store, limits: SyncWriteLimits()).queues == queues)
        }
    }

    /// On SQLite no push waits in the server's queue, so even a queue bounded to one waiting
    /// write for 1 ms refuses none of 16 concurrent pushes of one account.
    @Test func sqlitePushesNeverMeetTheQueueLimits() async throws {
        try await Self.withStore(.sqlite) { store in
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let app = try Self.queueApplication(
                store, directory: directory, maxWait: .milliseconds(1), logger: Logger.quiet("sqlite-queue"))
            try await app.test(.router) { client in
                let account = try await SyncAccount.make(APIClient(client: client), "pusher")
                let pushes = try (0..<16).map { [try SyncNodes.create(account.key, title: "t\($0)")] }
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for nodes in pushes {
                        group.addTask { try await Self.pushAnswer(account, nodes).status.code }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses == Array(repeating: 200, count: 16))
                #expect(try await account.pullAll(limit: 100).count == 16)
            }
        }
    }

    /// The PostgreSQL lock wait (`clockLockTimeout`, 2 s), untested before session 7: another
    /// connection (another server instance) holds the sync clock's row lock past the timeout.
    /// The push waiting for it is answered 429 `SYNC_BUSY` with `Retry-After` and writes
    /// nothing; a push that the configured queue (`--sync-queue-limit 1`) cannot take is refused
    /// at once; the push queued behind succeeds once the lock is released, and so does the
    /// refused push sent again.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["POSTGRES_URL"] != nil, "PostgreSQL only: set POSTGRES_URL"))
    func aPushWaitingPastTheLockTimeoutIsToldToRetryAndWritesNothing() async throws {
        try await Self.withStore(.postgres) { raw in
            let store = try #require(raw as? PostgresServerStore)
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let logger = Logger.quiet("lock-timeout")
            // The router over a gate the test can watch, so each push is sent once the one before
            // is where it must be (admitted, then queued), without sleeping.
            let gate = SyncWriteGate(
                for: store, limits: SyncWriteLimits(maxWaiting: 1, maxWaitingPerAccount: 1, maxWait: .seconds(30)))
            let configuration = ServerConfiguration(
                host: "127.0.0.1", port: 0, dataDirectory: directory.url, secret: TestServer.secret,
                trustedOrigins: ["myapp://"], rateLimiting: false)
            let hub = RelayHub(store: store, capacity: 16, logger: logger)
            let router = buildRouter(
                configuration: configuration, store: store, secret: TestServer.secret, hub: hub, syncWrites: gate
            ).router
            let app = Application(router: router, services: [gate], logger: logger)
            try await app.test(.router) { client in
                let account = try await SyncAccount.make(APIClient(client: client), "pusher")
                let first = [try SyncNodes.create(account.key, title: "first")]
                let second = [try SyncNodes.create(account.key, title: "second")]
                let third = [try SyncNodes.create(account.key, title: "third")]
                let (release, releaser) = AsyncStream.makeStream(of: Void.self)
                let (locked, lockedSink) = AsyncStream.makeStream(of: Void.self)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        // Held for as long as the test needs, past any store deadline.
                        try await store.database.holdingConnection { connection in
                            try await connection.query("BEGIN", logger: logger)
                            try await PostgresServerStore.lockClock(connection, logger)
                            lockedSink.yield()
                            for await _ in release { break }
                            try await connection.query("COMMIT", logger: logger)
                        }
                    }
                    for await _ in locked { break }
                    let firstPush = Task { try await Self.pushAnswer(account, first) }
                    #expect(await eventually { gate.isRunning }, "the first push was admitted")
                    let secondPush = Task { try await Self.pushAnswer(account, second) }
                    #expect(await eventually { gate.waiting == 1 }, "the second push waits in the queue")
                    // The first push is inside the store, the second waits in the queue of one
                    let full = try await Self.pushAnswer(account, third)
                    Self.expectBusy(full)
                    let timedOut = try await firstPush.value
                    Self.expectBusy(timedOut)
                    #expect(timedOut.text.contains("stayed locked"), "\(timedOut.text)")
                    releaser.yield()
                    try await group.waitForAll()
                    let queued = try await secondPush.value
                    #expect(queued.status == .ok, "\(queued.text)")
                }
                #expect(try await account.pullAll(limit: 100) == second.map(\.id.description))
                let again = try await account.push(first + third)
                #expect(again.map(\.status) == [.accepted, .accepted])
                #expect(Set(try await account.pullAll(limit: 100)).count == 3)
            }
        }
    }

    /// The server over `store` with a sync-write queue of one waiting write (one per account)
    /// that waits at most `maxWait`, rate limits off.
    static func queueApplication(
        _ store: any ServerStore, directory: TemporaryDirectory, maxWait: Duration, logger: Logger
    ) throws -> some ApplicationProtocol {
        let configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: directory.url, secret: TestServer.secret,
            trustedOrigins: ["myapp://"], rateLimiting: false,
            syncWrites: SyncWriteLimits(maxWaiting: 1, maxWaitingPerAccount: 1, maxWait: maxWait))
        return try buildApplication(configuration: configuration, store: store, logger: logger)
    }

    static func pushAnswer(_ account: SyncAccount, _ nodes: [RedoNode]) async throws -> APIClient.Answer {
        try await account.client.sync(
            .post, APIPath.redoNodes,
            json: #"{"nodes":["# + nodes.map(SyncNodes.text).joined(separator: ",") + "]}", cookie: account.cookie)
    }

    static func expectBusy(_ answer: APIClient.Answer) {
        #expect(answer.status == .tooManyRequests, "\(answer.status) \(answer.text)")
        #expect(answer.errorCode == APIErrorCode.syncBusy.rawValue)
        #expect(answer.headers[.retryAfter] == "1")
    }
}
