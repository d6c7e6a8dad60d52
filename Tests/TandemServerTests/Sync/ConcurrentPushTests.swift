import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import RedoProtocol
import TandemAPI
import TestSupport
import Testing

@testable import TandemServer

extension StoreContractTests {
    /// Many concurrent pushes of one account through two server instances on one database, each
    /// store bounded as `tandem serve` bounds it (the store deadline, 5 s). Before the in-process
    /// queue (`SyncWriteGate`) and the bounded lock wait, pushes queued in PostgreSQL behind the
    /// sync clock's row lock ran past the deadline and were answered 503 `DATABASE_UNAVAILABLE`
    /// (`scripts/load` sync-push). Now every push is answered 200, or 429 `SYNC_BUSY` with
    /// `Retry-After`; none 5xx; and every node a 200 accepted is in the account's feed.
    @Test(arguments: backends)
    func concurrentPushesOfOneAccountSucceedOrAreToldToRetry(backend: Backend) async throws {
        try await Self.withStores(backend, count: 2) { stores in
            let logger = Logger.quiet("concurrent-push")
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let configuration = ServerConfiguration(
                host: "127.0.0.1", port: 0, dataDirectory: directory.url, secret: TestServer.secret,
                trustedOrigins: ["myapp://"], rateLimiting: false)
            let first = try buildApplication(configuration: configuration, store: stores[0], logger: logger)
            let second = try buildApplication(configuration: configuration, store: stores[1], logger: logger)
            try await first.test(.router) { one in
                try await second.test(.router) { two in
                    let account = try await SyncAccount.make(APIClient(client: one), "pusher")
                    let clients = [APIClient(client: one), APIClient(client: two)]
                    // 32 pushes of a new task with 15 updates each, half through each instance
                    let pushes = try (0..<32).map { index -> [String] in
                        var nodes = [try SyncNodes.create(account.key, title: "t\(index)")]
                        for step in 0..<15 {
                            nodes.append(try SyncNodes.update(nodes[step], by: account.key, title: "s\(step)"))
                        }
                        return nodes.map(SyncNodes.text)
                    }
                    let answers = try await withThrowingTaskGroup(of: (APIClient.Answer, [String]).self) { group in
                        for (index, texts) in pushes.enumerated() {
                            group.addTask {
                                let answer = try await clients[index % 2].sync(
                                    .post, APIPath.redoNodes,
                                    json: #"{"nodes":["# + texts.joined(separator: ",") + "]}",
                                    cookie: account.cookie)
                                return (answer, texts)
                            }
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    var accepted: Set<String> = []
                    for (answer, _) in answers {
                        #expect(answer.status.code < 500, "\(answer.status) \(answer.text)")
                        if answer.status == .ok {
                            let results = try answer.decode(RedoNodePushResponse.self).results
                            #expect(results.allSatisfy { $0.status == .accepted }, "\(answer.text)")
                            accepted.formUnion(results.map(\.id))
                        } else {
                            #expect(answer.status == .tooManyRequests)
                            #expect(answer.errorCode == APIErrorCode.syncBusy.rawValue)
                            #expect(answer.headers[.retryAfter] == "1")
                        }
                    }
                    #expect(accepted.count > 0)
                    let feed = try await account.pullAll(limit: 1000)
                    #expect(Set(feed) == accepted)
                    #expect(feed.count == accepted.count)
                }
            }
        }
    }
}
