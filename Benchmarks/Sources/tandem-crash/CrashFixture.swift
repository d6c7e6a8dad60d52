import BenchSupport
import Foundation
import KaspaCrypto
import RedoProtocol
import TandemAPI
import TaskStore

/// What every cycle of one run shares, made once against the first server: an account that
/// signs in and owns the synced data, its registered device key (so node pushes are accepted,
/// issue 12 item 1), and the relay sender's key. Names carry a per-run tag so runs never
/// collide on a PostgreSQL database that outlives them.
struct CrashFixture: Sendable {
    static let password = "crash harness password 1"

    let tag: String
    let username: String
    let owner: CrashLedger.Session
    let identity: ProfileIdentity
    let relayKey: PrivateKey
    let relaySender: String

    /// Signs the owner up, registers its device key, and records the sign-up as the run's
    /// first acknowledged session.
    init(client: CrashClient, workDirectory: URL, ledger: CrashLedger) async throws {
        var generator = SystemRandomNumberGenerator()
        tag = String(UInt32.random(in: 0...UInt32.max, using: &generator), radix: 36)
        username = "crash_\(tag)"
        ledger.attempt(.signUp)
        owner = try await client.signUp(username: username, password: Self.password)
        ledger.session(owner, kind: .signUp)
        identity = try ProfileIdentity.loadOrCreate(
            keyFile: workDirectory.appendingPathComponent("identity/redo-key"),
            deviceFile: workDirectory.appendingPathComponent("identity/device"))
        let publicKey = identity.key.publicKey.description
        let signature = identity.key.signature(
            for: DeviceKeyBinding.message(userID: owner.userID, publicKey: publicKey))
        let registration = DeviceKeyRegistration(publicKey: publicKey, signature: signature.description)
        _ = try await client.send(
            .POST, APIPath.myKeys, cookie: owner.cookie, body: Array(try JSONEncoder().encode(registration)),
            expected: [200, 201])
        relayKey = PrivateKey.generate()
        relaySender = KaspaAddress(publicKey: relayKey.xOnlyPublicKey).description
    }
}
