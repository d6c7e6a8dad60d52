import Foundation
import GRDB
import KaspaCrypto
import TandemBasics
import TandemTesting

@testable import Contacts

enum Fixture {
    static let day: Int64 = 86_400_000
    static let hour: Int64 = 3_600_000
    /// 2026-01-01T00:00:00Z.
    static let epoch: Int64 = 1_767_225_600_000

    /// A valid mainnet address whose payload is derived from `seed`.
    static func address(_ seed: UInt8) -> ContactAddress {
        let payload = (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 7 &+ Int(seed) &* 31 &+ 1) }
        do {
            return ContactAddress(try KaspaAddress(network: .mainnet, version: .publicKey, payload: payload))
        } catch {
            preconditionFailure("fixture payload has the right length")
        }
    }

    static let wallet = address(200)

    static func key(_ seed: UInt8, wallet: ContactAddress = wallet) -> ContactKey {
        ContactKey(wallet: wallet, address: address(seed))
    }

    static func replica(_ name: String) throws -> ReplicaID { try ReplicaID(name) }

    /// An in-memory store with a fixed replica id and a hand-set clock.
    static func store(replica name: String, clock: ManualClock) throws -> ContactsStore {
        try ContactsStore(writer: DatabaseQueue(), clock: clock, replica: try ReplicaID(name))
    }

    /// Sends every record of `source` to `destination`.
    @discardableResult
    static func sync(_ source: ContactsStore, to destination: ContactsStore, wallet: ContactAddress = wallet) throws
        -> [ContactKey]
    {
        try destination.merge(try source.records(wallet: wallet))
    }
}
