import TandemBasics
import TandemTesting
import TestSupport

@testable import Contacts

/// Random histories on several replicas with skewed clocks, random delivery order and
/// duplicated deliveries (issue 7 "Property tests").
struct ReplicaSimulation {
    struct Replica {
        let store: ContactsStore
        let clock: ManualClock
        let skew: Int64
    }

    private(set) var replicas: [Replica] = []
    /// Snapshots in flight: (destination, records).
    private var inFlight: [(Int, [ContactRecord])] = []
    /// Every snapshot ever sent, for order-independence checks.
    private(set) var allSnapshots: [[ContactRecord]] = []
    private var generator: SeededRandom
    private var time = Fixture.epoch
    let addresses: [ContactAddress]

    init(seed: UInt64, replicaCount: Int, addressCount: Int = 3) throws {
        generator = SeededRandom(seed: seed)
        addresses = (0..<addressCount).map { Fixture.address(UInt8($0 + 1)) }
        for index in 0..<replicaCount {
            // Up to ±2 hours of skew per device.
            let skew = Int64.random(in: -2 * Fixture.hour...2 * Fixture.hour, using: &generator)
            let clock = ManualClock(UnixMillis(Fixture.epoch + skew))
            replicas.append(
                Replica(store: try Fixture.store(replica: "r\(index)", clock: clock), clock: clock, skew: skew))
        }
    }

    /// Runs `steps` random operations with random, duplicated, reordered deliveries in between.
    mutating func run(steps: Int) throws {
        for _ in 0..<steps {
            time += Int64.random(in: 0...5_000, using: &generator)
            let index = Int.random(in: 0..<replicas.count, using: &generator)
            let replica = replicas[index]
            replica.clock.set(UnixMillis(time + replica.skew))
            try perform(on: replica, index: index)
            if !inFlight.isEmpty, Bool.random(using: &generator) { try deliverOne() }
        }
    }

    /// Delivers everything still in flight, then lets every replica send its state to every other.
    mutating func settle() throws {
        while !inFlight.isEmpty { try deliverOne(allowDuplicate: false) }
        for _ in 0..<2 {
            for source in replicas.indices {
                for destination in replicas.indices where destination != source {
                    try replicas[destination].store.merge(try replicas[source].store.records(wallet: Fixture.wallet))
                }
            }
        }
    }

    func states() throws -> [[ContactRecord]] {
        try replicas.map { try $0.store.records(wallet: Fixture.wallet) }
    }

    mutating func shuffledWithDuplicates(_ snapshots: [[ContactRecord]]) -> [[ContactRecord]] {
        var result = snapshots
        for snapshot in snapshots where Bool.random(using: &generator) { result.append(snapshot) }
        result.shuffle(using: &generator)
        return result
    }

    private mutating func perform(on replica: Replica, index: Int) throws {
        let store = replica.store
        let address = addresses[Int.random(in: 0..<addresses.count, using: &generator)]
        let wallet = Fixture.wallet
        let aliases = ["", "Bob", "bob.kas", address.autoAlias, "Alice", "x.kas"]
        let alias = aliases[Int.random(in: 0..<aliases.count, using: &generator)]
        do {
            switch Int.random(in: 0..<9, using: &generator) {
            case 0: try store.add(address, wallet: wallet, alias: Bool.random(using: &generator) ? alias : nil)
            case 1: try store.rename(address, wallet: wallet, to: alias)
            case 2: try store.setKNSName(address, wallet: wallet, to: alias)
            case 3: try store.setNotificationsMuted(address, wallet: wallet, Bool.random(using: &generator))
            case 4: try store.setRealtimeUpdatesDisabled(address, wallet: wallet, Bool.random(using: &generator))
            case 5: try store.remove(address, wallet: wallet)
            case 6:
                let at = time - Int64.random(in: -1_000...60_000, using: &generator)
                try store.recordMessage(from: address, wallet: wallet, at: UnixMillis(at))
            default:
                let snapshot = try store.records(wallet: wallet)
                var destination = Int.random(in: 0..<replicas.count, using: &generator)
                if destination == index { destination = (destination + 1) % replicas.count }
                inFlight.append((destination, snapshot))
                allSnapshots.append(snapshot)
            }
        } catch let error as ContactsError {
            // Editing a contact that is missing or deleted on this replica is refused: expected.
            switch error {
            case .contactNotFound, .contactDeleted: break
            default: throw error
            }
        }
    }

    private mutating func deliverOne(allowDuplicate: Bool = true) throws {
        let position = Int.random(in: 0..<inFlight.count, using: &generator)
        let (destination, records) = inFlight[position]
        if !(allowDuplicate && Int.random(in: 0..<4, using: &generator) == 0) { inFlight.remove(at: position) }
        try replicas[destination].store.merge(records)
    }
}
