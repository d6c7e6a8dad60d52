import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemAPI
import TandemBasics

/// Real keys and payloads for relay tests: submissions are signed with BIP-340 by
/// `RelaySubmission.signed`, the same code a client uses.
enum RelayFixtures {
    /// Fixed keys, so golden answers stay the same run after run.
    static let alice = key(1)
    static let bob = key(2)
    static let carol = key(3)

    static func key(_ seed: UInt8) -> PrivateKey {
        do { return try PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 31) + [seed]) } catch {
            preconditionFailure("fixed test key \(seed) is valid")
        }
    }

    static func address(_ key: PrivateKey) -> KaspaAddress { KaspaAddress(publicKey: key.xOnlyPublicKey) }

    /// Bytes shaped like a sealed message (nonce, 02-key, ciphertext, tag); never opened.
    static func sealed(_ seed: UInt8, count: Int = 77) -> [UInt8] {
        (0..<count).map { index in index == 12 ? 0x02 : UInt8(truncatingIfNeeded: Int(seed) &* 31 &+ index &* 7) }
    }

    static let alias = fixedAlias("a1b2c3d4e5f6")

    static func fixedAlias(_ text: String) -> Alias {
        do { return try Alias(text) } catch { preconditionFailure("fixed alias \(text) is valid") }
    }

    static func handshake(_ seed: UInt8 = 1, root: KasiaRoot = .ciphMsg) -> [UInt8] {
        KasiaPayload.handshake(sealed: sealed(seed)).encoded(root: root)
    }

    static func message(_ seed: UInt8 = 1, alias: Alias = alias, root: KasiaRoot = .ciphMsg) -> [UInt8] {
        KasiaPayload.contextualMessage(alias: alias, sealed: sealed(seed), encoding: .base64).encoded(root: root)
    }

    static func payment(_ seed: UInt8 = 1, root: KasiaRoot = .ciphMsg) -> [UInt8] {
        KasiaPayload.payment(sealed: sealed(seed), form: .kachat).encoded(root: root)
    }

    static func selfStash(
        _ seed: UInt8 = 1, scope: String? = KasiaPayload.savedHandshakeScope, root: KasiaRoot = .ciphMsg
    ) -> [UInt8] {
        KasiaPayload.selfStash(scope: scope, sealed: sealed(seed)).encoded(root: root)
    }

    static func signed(
        _ payload: [UInt8], by key: PrivateKey = alice, to receiver: PrivateKey? = nil, amount: UInt64? = nil,
        nonce: UInt64 = 1
    ) -> RelaySubmission {
        do {
            return try RelaySubmission.signed(
                payload: payload, by: key, receiver: receiver.map(address), amount: amount, nonce: nonce)
        } catch {
            preconditionFailure("signing with a valid key cannot fail: \(error)")
        }
    }

    static func json(_ submission: RelaySubmission) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do { return String(decoding: try encoder.encode(submission), as: UTF8.self) } catch {
            preconditionFailure("a submission always encodes")
        }
    }
}

extension APIClient {
    /// Posts `submission` to `/kasia/transactions`.
    func submit(_ submission: RelaySubmission) async throws -> Answer {
        try await send(.post, APIPath.kasiaTransactions, json: RelayFixtures.json(submission))
    }
}
