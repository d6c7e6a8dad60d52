import Foundation
import TandemAPI
import Testing

/// `GET/PUT /api/contacts/records` (issue 12 item 3), `GET/PUT /api/tasks/presets` (issue 27
/// item 3) and `GET/PUT /api/chat/history` (issue 48 item 1): one behaviour, three collections,
/// each with its own error codes.
@Suite struct ContactRecordRouteTests {
    struct Route: Sendable, CustomStringConvertible {
        let path: String
        let conflict: String
        let invalid: String
        var description: String { path }
    }

    static let routes = [
        Route(path: APIPath.contactRecords, conflict: "CONTACT_VERSION_CONFLICT", invalid: "INVALID_CONTACT_RECORD"),
        Route(path: APIPath.taskPresets, conflict: "PRESET_VERSION_CONFLICT", invalid: "INVALID_PRESET_RECORD"),
        Route(path: APIPath.chatHistory, conflict: "CHAT_VERSION_CONFLICT", invalid: "INVALID_CHAT_RECORD"),
    ]

    static func id(_ byte: Int) -> String { String(repeating: String(format: "%02x", byte), count: 32) }

    static func put(_ account: SyncAccount, _ writes: [(Int, String, Int64)], at path: String) async throws
        -> APIClient.Answer
    {
        let records = writes.map { id, box, base in
            #"{"id":"\#(Self.id(id))","box":"\#(Data(box.utf8).base64EncodedString())","baseVersion":\#(base)}"#
        }
        return try await account.client.sync(
            .put, path, json: #"{"records":["# + records.joined(separator: ",") + "]}",
            cookie: account.cookie)
    }

    static func all(_ account: SyncAccount, at path: String) async throws -> [ContactRecordEntry] {
        let answer = try await account.client.sync(.get, path + "?limit=1000", cookie: account.cookie)
        return try answer.decode(ContactRecordPage.self).records
    }

    @Test(arguments: routes)
    func aStaleWriteGets409AndNothingAcceptedIsOverwritten(route: Route) async throws {
        let server = try TestServer()
        defer { server.directory.remove() }
        try await server.test { client in
            let anna = try await SyncAccount.make(client, "anna")
            // Two devices create the same record: the first wins, the second gets 409
            let first = try await Self.put(anna, [(1, "phone", 0)], at: route.path)
            #expect(try first.decode(ContactRecordsPutResponse.self).records.map(\.version) == [1])
            let stale = try await Self.put(anna, [(1, "laptop", 0)], at: route.path)
            #expect(stale.status == .conflict)
            #expect(stale.errorCode == route.conflict)
            // All or nothing: a batch with one stale record writes none of it
            #expect(try await Self.put(anna, [(2, "new", 0), (1, "stale", 0)], at: route.path).status == .conflict)
            #expect(try await Self.all(anna, at: route.path).map(\.box) == [Data("phone".utf8).base64EncodedString()])
            // After pulling version 1, the merged write goes through
            let merged = try await Self.put(anna, [(1, "merged", 1), (2, "new", 0)], at: route.path)
            #expect(try merged.decode(ContactRecordsPutResponse.self).records.map(\.version) == [2, 1])
            let records = try await Self.all(anna, at: route.path)
            #expect(records.map(\.version) == [2, 1])

            // Paging by cursor returns each change once, in server order
            let page = try await client.sync(.get, route.path + "?limit=1", cookie: anna.cookie)
                .decode(ContactRecordPage.self)
            #expect(page.hasMore)
            let next = try await client.sync(
                .get, route.path + "?limit=5&after=\(page.cursor)", cookie: anna.cookie
            ).decode(ContactRecordPage.self)
            #expect(page.records.count + next.records.count == 2)
            #expect(!next.hasMore)

            // Another account has its own namespace: same id, no conflict, nothing visible
            let ben = try await SyncAccount.make(client, "ben")
            #expect(try await Self.all(ben, at: route.path).isEmpty)
            #expect(try await Self.put(ben, [(1, "bens", 0)], at: route.path).status == .ok)
            #expect(try await Self.all(anna, at: route.path).first?.version == 2)
            #expect(try await Self.all(ben, at: route.path).map(\.version) == [1])

            // Malformed records are a typed 400
            let bad = try await client.sync(
                .put, route.path, json: #"{"records":[{"id":"xyz","box":"AA==","baseVersion":0}]}"#,
                cookie: anna.cookie)
            #expect(bad.errorCode == route.invalid)
        }
    }
}
