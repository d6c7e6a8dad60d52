@testable import Contacts
import Foundation
import GRDB
import KaspaCrypto

/// A deterministic generator (SplitMix64) so every random history can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A wall clock a test sets by hand; `skew` models a device whose clock is wrong.
final class TestWallClock: WallClock, @unchecked Sendable {
    // `millis` is only touched under `lock`.
    private let lock = NSLock()
    private var millis: Int64

    init(_ millis: Int64) { self.millis = millis }

    func now() -> UnixMillis {
        lock.lock()
        defer { lock.unlock() }
        return UnixMillis(millis)
    }

    func set(_ value: Int64) {
        lock.lock()
        millis = value
        lock.unlock()
    }

    func advance(by delta: Int64) {
        lock.lock()
        millis += delta
        lock.unlock()
    }
}

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
    static func store(replica name: String, clock: TestWallClock) throws -> ContactsStore {
        try ContactsStore(writer: DatabaseQueue(), clock: clock, replica: try ReplicaID(name))
    }

    /// Sends every record of `source` to `destination`.
    @discardableResult
    static func sync(_ source: ContactsStore, to destination: ContactsStore, wallet: ContactAddress = wallet) throws -> [ContactKey] {
        try destination.merge(try source.records(wallet: wallet))
    }
}
