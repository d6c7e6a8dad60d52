import Foundation
import RedoProtocol
import TandemAPI
import Testing

/// `POST/GET/DELETE /api/me/keys` (issue 12 item 1).
@Suite struct DeviceKeyRouteTests {
    @Test func aKeyNeedsProofOfPossessionAndBelongsToOneAccount() async throws {
        let server = try TestServer()
        defer { server.directory.remove() }
        try await server.test { client in
            // Given two accounts, Anna's key bound to Anna
            let anna = try await SyncAccount.make(client, "anna")
            let ben = try await SyncAccount.make(client, "ben")

            // Binding again is a no-op; a proof made for another account is refused
            #expect(try await anna.bind(anna.key).status == .ok)
            let stolen = SigningKey()
            let proofForAnna = stolen.signature(
                for: DeviceKeyBinding.message(userID: anna.userID, publicKey: stolen.publicKey.description))
            let replayed = try await client.sync(
                .post, APIPath.myKeys,
                json: #"{"publicKey":"\#(stolen.publicKey)","signature":"\#(proofForAnna)"}"#, cookie: ben.cookie)
            #expect(replayed.status == .badRequest)
            #expect(replayed.errorCode == "INVALID_KEY_BINDING")

            // Ben cannot take Anna's key even with a valid proof of his own
            let taken = try await ben.bind(anna.key)
            #expect(taken.status == .conflict)
            #expect(taken.errorCode == "KEY_BELONGS_TO_ANOTHER_ACCOUNT")

            // Listing shows each account its own keys only
            let list = try await client.sync(.get, APIPath.myKeys, cookie: anna.cookie).decode(DeviceKeyList.self)
            #expect(list.keys.map(\.publicKey) == [anna.key.publicKey.description])

            // Revoking: only the owner, idempotent, and a revoked key cannot come back
            let path = APIPath.myKey(anna.key.publicKey.description)
            #expect(try await client.sync(.delete, path, cookie: ben.cookie).status == .notFound)
            let revoked = try await client.sync(.delete, path, cookie: anna.cookie)
            #expect(revoked.status == .ok)
            #expect(try revoked.decode(DeviceKey.self).revokedAt != nil)
            #expect(try await client.sync(.delete, path, cookie: anna.cookie).status == .ok)
            #expect(try await anna.bind(anna.key).errorCode == "KEY_REVOKED")

            // Malformed input is a typed 400, never a 500
            let malformed = try await client.sync(
                .post, APIPath.myKeys, json: #"{"publicKey":"zz","signature":"00"}"#, cookie: anna.cookie)
            #expect(malformed.status == .badRequest)
            #expect(malformed.errorCode == "VALIDATION_ERROR")
            #expect(try await client.sync(.get, APIPath.myKeys).status == .unauthorized)
        }
    }
}
