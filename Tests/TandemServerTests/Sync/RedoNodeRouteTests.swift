import CanonicalJSON
import Foundation
import RedoProtocol
import TandemAPI
import TestSupport
import Testing

/// `POST/GET /api/redo/nodes` and sharing (issue 12 item 2).
@Suite struct RedoNodeRouteTests {
    @Test func nodesSignedByAnUnregisteredOrAnotherAccountsKeyAreRejectedWithACode() async throws {
        let server = try TestServer()
        defer { server.directory.remove() }
        try await server.test { client in
            let anna = try await SyncAccount.make(client, "anna")
            let ben = try await SyncAccount.make(client, "ben")
            let good = try SyncNodes.create(anna.key)
            let bens = try SyncNodes.create(ben.key)
            let stranger = try SyncNodes.create(SigningKey())

            // One bad node never blocks the good ones
            let results = try await anna.push([bens, good, stranger])
            #expect(results.map(\.status) == [.rejected, .accepted, .rejected])
            #expect(results.map(\.code) == ["E_KEY_NOT_REGISTERED", nil, "E_KEY_NOT_REGISTERED"])
            #expect(results[1].id == good.id.description)

            // Pushing again is idempotent
            #expect(try await anna.push([good]).map(\.status) == [.duplicate])

            // A revoked key pushes no more; what it pushed stays readable
            _ = try await client.sync(.delete, APIPath.myKey(anna.key.publicKey.description), cookie: anna.cookie)
            let late = try SyncNodes.update(good, by: anna.key, title: "late")
            #expect(try await anna.push([late]).map(\.code) == ["E_KEY_NOT_REGISTERED"])
            #expect(try await anna.pullAll() == [good.id.description])
        }
    }

    /// The pull answer is spliced from stored texts, not encoded by a DTO, so its bytes are pinned
    /// here: keys in canonical order, each node in canonical form whether it was pushed so (stored
    /// as it came) or spelled otherwise (issue 49 item 6), the cursor an opaque string.
    @Test func thePullAnswerIsPinnedByteForByte() async throws {
        let server = try TestServer()
        defer { server.directory.remove() }
        try await server.test { client in
            let anna = try await SyncAccount.make(client, "anna")
            let first = try SyncNodes.create(anna.key)
            let second = try SyncNodes.update(first, by: anna.key, title: "second")
            let spaced = SyncNodes.text(second).replacingOccurrences(of: #"",""#, with: #"", ""#)
            #expect(spaced != SyncNodes.text(second))
            let pushed = try await anna.push([SyncNodes.text(first), "\n" + spaced + " "])
            #expect(pushed.map(\.status) == [.accepted, .accepted])
            let page = try await client.sync(.get, APIPath.redoNodes + "?limit=1", cookie: anna.cookie)
            let cursor = try #require(page.json?["cursor"] as? String)
            #expect(page.headers[.contentType] == "application/json")
            #expect(
                page.text == #"{"cursor":"\#(cursor)","hasMore":true,"nodes":["# + SyncNodes.text(first) + "]}")
            let last = try await client.sync(
                .get, APIPath.redoNodes + "?limit=5&after=\(cursor)", cookie: anna.cookie)
            let end = try #require(last.json?["cursor"] as? String)
            #expect(last.text == #"{"cursor":"\#(end)","hasMore":false,"nodes":["# + SyncNodes.text(second) + "]}")
            let empty = try await client.sync(.get, APIPath.redoNodes + "?after=\(end)", cookie: anna.cookie)
            #expect(empty.text == #"{"cursor":"\#(end)","hasMore":false,"nodes":[]}"#)
        }
    }

    @Test func everyInvalidNodeClassOfTheVectorsIsRejectedWithItsCode() async throws {
        let vectors = try JSONParser().parse(try Vectors.data(named: "redo-vectors"))
        let keys = try #require(vectors["keys"]?.arrayValue).compactMap { entry -> SigningKey? in
            guard let seed = entry["privateKeyHex"]?.stringValue, let bytes = Data(testHex: seed) else { return nil }
            return try? SigningKey(seed: Array(bytes))
        }
        let invalid = try #require(vectors["invalidNodes"]?.arrayValue)
        let server = try TestServer()
        defer { server.directory.remove() }
        try await server.test { client in
            let account = try await SyncAccount.make(client, "vectors", key: keys[0])
            for key in keys.dropFirst() { #expect(try await account.bind(key).status == .created) }
            var texts: [String] = []
            var acceptable: [Set<String>] = []
            var textLevel: [String] = []
            for entry in invalid {
                if let text = entry["nodeJsonText"]?.stringValue {
                    textLevel.append(text)
                    continue
                }
                let node = try #require(entry["node"])
                texts.append(String(decoding: try CanonicalJSON.canonicalBytes(of: node), as: UTF8.self))
                var codes = Set((entry["acceptableCodes"]?.arrayValue ?? []).compactMap(\.stringValue))
                // The server requires signatures (spec §3 sync boundary), so an unsigned node may
                // also be refused for that.
                if node["signature"] == nil { codes.insert("E_INVALID_SIGNATURE") }
                acceptable.append(codes)
            }
            let results = try await account.push(texts)
            #expect(results.count == texts.count)
            for (index, result) in results.enumerated() {
                #expect(result.status == .rejected, "\(texts[index])")
                #expect(acceptable[index].contains(result.code ?? ""), "\(result.code ?? "nil") for \(texts[index])")
            }
            // Text-level faults (lone surrogate, duplicate key, NaN) make the body itself not
            // I-JSON: the whole request is a typed 400.
            for text in textLevel {
                let answer = try await client.sync(
                    .post, APIPath.redoNodes, json: #"{"nodes":["# + text + "]}", cookie: account.cookie)
                #expect(answer.status == .badRequest)
                #expect(answer.errorCode == "BAD_REQUEST")
            }
            #expect(try await account.pullAll().isEmpty)
        }
    }

    @Test func oneAccountNeverReadsAnothersTasksUntilShared() async throws {
        let server = try TestServer()
        defer { server.directory.remove() }
        try await server.test { client in
            // Given Anna's task on the server
            let anna = try await SyncAccount.make(client, "anna")
            let ben = try await SyncAccount.make(client, "ben")
            let create = try SyncNodes.create(anna.key)
            let rename = try SyncNodes.update(create, by: anna.key, title: "renamed")
            #expect(try await anna.push([create, rename]).map(\.status) == [.accepted, .accepted])

            // Ben sees nothing, whatever cursor he tries, and can neither write nor share it
            #expect(try await ben.pullAll().isEmpty)
            for cursor in ["0", "1", "2", "999999"] {
                let page = try await client.sync(.get, APIPath.redoNodes + "?after=\(cursor)", cookie: ben.cookie)
                #expect((page.json?["nodes"] as? [Any])?.isEmpty == true)
            }
            let intrusion = try SyncNodes.update(rename, by: ben.key, title: "mine")
            #expect(try await ben.push([intrusion]).map(\.code) == ["E_TASK_FORBIDDEN"])
            #expect(try await ben.push([create]).map(\.code) == ["E_KEY_NOT_REGISTERED"])
            let share = try await client.sync(
                .post, APIPath.shareTask(create.taskID.description), json: #"{"username":"ben"}"#, cookie: ben.cookie)
            #expect(share.status == .notFound)
            #expect(share.errorCode == "TASK_NOT_FOUND")
            let garbage = try await client.sync(.get, APIPath.redoNodes + "?after=abc", cookie: ben.cookie)
            #expect(garbage.errorCode == "INVALID_CURSOR")

            // When Anna shares it, Ben is invited; once he accepts he gets its past nodes, and
            // his edits reach Anna
            let shared = try await client.sync(
                .post, APIPath.shareTask(create.taskID.description), json: #"{"username":"BEN"}"#, cookie: anna.cookie)
            #expect(
                try shared.decode(TaskShareResponse.self)
                    == TaskShareResponse(
                        taskId: create.taskID.description, username: "ben", added: false, invited: true))
            #expect(try await ben.pullAll().isEmpty)
            let accepted = try await client.sync(
                .post, APIPath.acceptInvitation(create.taskID.description), cookie: ben.cookie)
            #expect(
                try accepted.decode(TaskInvitationAnswer.self)
                    == TaskInvitationAnswer(
                        taskId: create.taskID.description, from: "anna", accepted: true, added: true))
            #expect(try await ben.pullAll() == [create.id.description, rename.id.description])
            #expect(try await ben.push([intrusion]).map(\.status) == [.accepted])
            #expect(
                try await anna.pullAll() == [create.id.description, rename.id.description, intrusion.id.description])

            // A child whose parent the server lacks is refused, and accepted once the parent is there
            let orphanParent = try SyncNodes.update(intrusion, by: ben.key, title: "parent")
            let orphan = try SyncNodes.update(orphanParent, by: ben.key, title: "child")
            #expect(try await ben.push([orphan]).map(\.code) == ["E_PARENT_NOT_FOUND"])
            #expect(try await ben.push([orphanParent, orphan]).map(\.status) == [.accepted, .accepted])
            // A second CREATE for the task is refused
            let unknownUser = try await client.sync(
                .post, APIPath.shareTask(create.taskID.description), json: #"{"username":"nobody"}"#,
                cookie: anna.cookie)
            #expect(unknownUser.errorCode == "USER_NOT_FOUND")
            #expect(try await client.sync(.get, APIPath.redoNodes).status == .unauthorized)
        }
    }
}
