import Foundation
import Hummingbird
import RedoProtocol
import TandemAPI
import TandemBasics
import TandemServerStore

/// `POST/GET /api/me/keys`, `DELETE /api/me/keys/{publicKey}` (issue 12 item 1): the device
/// keys whose nodes the account may push. Proof of possession is a signature over
/// ``DeviceKeyBinding`` naming this account, so a key cannot be claimed by someone who only
/// saw it in a node.
struct DeviceKeysController: Sendable {
    let store: any SyncStore
    let clock: any WallClock
    let gate: SyncWriteGate

    func register(on group: RouterGroup<AuthenticatedRequestContext>, table: RouteTable) {
        table.add(group, .get, "keys", fullPath: APIPath.myKeys) { _, context in try await list(context) }
        table.add(group, .post, "keys", fullPath: APIPath.myKeys) { request, context in
            try await add(request, context: context)
        }
        table.add(group, .delete, "keys/:publicKey", fullPath: APIPath.myKeys + "/{publicKey}") { _, context in
            try await revoke(context)
        }
    }

    func list(_ context: AuthenticatedRequestContext) async throws -> Response {
        let resolved = context.session
        let keys = try await store.deviceKeys(userID: AccountID(resolved.user.id))
        return try JSONResponse.make(DeviceKeyList(keys: keys.map(Self.wire)))
    }

    func add(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let resolved = context.session
        var fields = try DeviceKeyRegistration.fields(of: try await JSONBody.read(request))
        let body = try fields.decode { fields -> DeviceKeyRegistration? in
            let publicKey = fields.string(.publicKey)
            let signature = fields.string(.signature)
            guard let publicKey, let signature else { return nil }
            return DeviceKeyRegistration(publicKey: publicKey, signature: signature)
        }
        guard let publicKey = PublicKeyHex(body.publicKey) else {
            throw APIFailure.validation(["[body.publicKey] must be 64 lowercase hex characters"])
        }
        guard let signature = SignatureHex(body.signature) else {
            throw APIFailure.validation(["[body.signature] must be 128 lowercase hex characters"])
        }
        let message = DeviceKeyBinding.message(userID: resolved.user.id, publicKey: body.publicKey)
        guard SigningKey.isValidSignature(signature, for: message, publicKey: publicKey) else {
            throw APIFailure(
                .badRequest, .invalidKeyBinding, "signature does not verify over the key-binding message")
        }
        let outcome = try await gate.run(account: resolved.user.id) {
            try await store.registerDeviceKey(
                publicKey: body.publicKey, userID: AccountID(resolved.user.id), now: clock.now)
        }
        switch outcome {
        case .registered(let key): return try JSONResponse.make(Self.wire(key), status: .created)
        case .existing(let key): return try JSONResponse.make(Self.wire(key))
        case .ownedByAnotherAccount:
            throw APIFailure(.conflict, .keyBelongsToAnotherAccount, "this key is bound to another account")
        case .revoked:
            throw APIFailure(.conflict, .keyRevoked, "this key was revoked and cannot be registered again")
        }
    }

    func revoke(_ context: AuthenticatedRequestContext) async throws -> Response {
        let resolved = context.session
        let publicKey = context.parameters.get("publicKey") ?? ""
        let revoked = try await gate.run(account: resolved.user.id) {
            try await store.revokeDeviceKey(
                publicKey: publicKey, userID: AccountID(resolved.user.id), now: clock.now)
        }
        guard let key = revoked else { throw APIFailure(.notFound, .keyNotFound, "no such key on this account") }
        return try JSONResponse.make(Self.wire(key))
    }

    static func wire(_ key: StoredDeviceKey) -> DeviceKey {
        DeviceKey(publicKey: key.publicKey, createdAt: key.createdAt.date, revokedAt: key.revokedAt?.date)
    }
}
