import BenchSupport
import Contacts
import Foundation
import KaspaCrypto
public import MicroBenchmarks
import TandemBasics
import TandemTesting

/// `tandem-bench contacts` (issue 7 figures): merging 10,000 remote records, migrating 10,000
/// legacy contacts, and 500 rapid changes through the debounced feed.
public enum ContactsBenchmarks {
    public struct Result: Sendable, Encodable {
        public let report: BenchReport
        public let rapidChanges: Int
        /// Watched-set events the rapid changes produced (the budget is exactly 1).
        public let watchedSetEvents: Int
        /// The CRDT merge of 10,000 records (the merge rules themselves) under 100 ms.
        public let mergeWithinBudget: Bool
        /// The same with every merged row written to SQLite, under 100 ms.
        public let persistedMergeWithinBudget: Bool
        public let migrationWithinBudget: Bool

        public var markdown: String {
            report.markdown + "\n\n"
                + "Budgets: merge 10,000 < 100 ms: \(mergeWithinBudget ? "yes" : "NO") "
                + "(with every row rewritten in SQLite: \(persistedMergeWithinBudget ? "yes" : "NO")); "
                + "migrate 10,000 < 1 s: \(migrationWithinBudget ? "yes" : "NO"); "
                + "\(rapidChanges) rapid changes → \(watchedSetEvents) watched-set event(s)."
        }
    }

    public static func run(samples: Int, count: Int = 10_000) async throws -> Result {
        let wallet = ContactAddress(try benchAddress(UInt32.max))
        let addresses = try (0..<UInt32(count)).map { ContactAddress(try benchAddress($0)) }
        let remote = try records(wallet: wallet, addresses: addresses, replica: "remote", offsetMillis: 60_000)
        let local = try records(wallet: wallet, addresses: addresses, replica: "local", offsetMillis: -3_600_000)

        let pureMerge = try timed("pure record merge ×\(count) (baseline)", samples: samples) {
            { blackHole(zip(local, remote).map { $0.merged(with: $1) }) }
        }
        let storeMerge = try timed(
            "store merge of \(count) newer remote records (every row rewritten)", samples: samples
        ) {
            let store = try scratchStore()
            // The local side already knows every contact, with its own older edits.
            try store.merge(local)
            return { try store.merge(remote) }
        }
        let storeResync = try timed("store merge of \(count) records already held (re-sync)", samples: samples) {
            let store = try scratchStore()
            try store.merge(remote)
            return { try store.merge(remote) }
        }
        let legacy = legacyFile(wallet: wallet, addresses: addresses)
        let migration = try timed("migrate \(count) legacy contacts", samples: samples) {
            let store = try scratchStore()
            return { _ = try store.migrateLegacy(json: legacy, defaultWallet: wallet) }
        }
        let events = try await rapidChangeEvents(wallet: wallet, addresses: Array(addresses.prefix(500)))
        return Result(
            report: BenchReport(
                title: "Contacts store (issue 7)", baseline: pureMerge,
                others: [storeMerge, storeResync, migration]),
            rapidChanges: 500, watchedSetEvents: events,
            mergeWithinBudget: pureMerge.medianNanoseconds < 100e6,
            persistedMergeWithinBudget: storeMerge.medianNanoseconds < 100e6,
            migrationWithinBudget: migration.medianNanoseconds < 1e9)
    }

    /// Times `body` once per sample after an untimed `setUp`; one warm-up sample is discarded.
    static func timed(_ name: String, samples: Int, _ setUp: () throws -> () throws -> Void) throws -> BenchMeasurement
    {
        let clock = ContinuousClock()
        var perSample: [Double] = []
        for sample in 0...samples {
            let body = try setUp()
            let elapsed = try clock.measure { try body() }
            if sample > 0 { perSample.append(elapsed.nanoseconds) }
        }
        perSample.sort()
        return BenchMeasurement(
            name: name, iterationsPerSample: 1, samples: samples,
            medianNanoseconds: perSample[perSample.count / 2], minNanoseconds: perSample[0])
    }

    /// 500 watched-set changes in quick succession on a manual clock; counts the events a
    /// watched-set subscriber receives (a sentinel change afterwards proves nothing was left over).
    static func rapidChangeEvents(wallet: ContactAddress, addresses: [ContactAddress]) async throws -> Int {
        let store = try scratchStore()
        let clock = ManualClock()
        let feed = try store.changeFeed(
            wallet: wallet, interest: .watchedSetOnly, quietPeriod: .milliseconds(800),
            maxWait: .seconds(5), clock: clock)
        defer { feed.cancel() }
        var iterator = feed.makeAsyncIterator()
        for (index, address) in addresses.enumerated() {
            try store.add(address, wallet: wallet)
            if index % 50 == 49 { clock.advance(by: .milliseconds(10)) }
        }
        clock.advance(by: .seconds(1))
        var events = 0
        guard await iterator.next() != nil else { return events }
        events += 1
        let sentinel = ContactAddress(try benchAddress(UInt32.max - 1))
        try store.add(sentinel, wallet: wallet)
        clock.advance(by: .seconds(1))
        if let next = await iterator.next(), next.changedKeys != [ContactKey(wallet: wallet, address: sentinel)] {
            events += 1
        }
        return events
    }

    /// One record per address as another replica would send them; every tenth one deleted.
    static func records(
        wallet: ContactAddress, addresses: [ContactAddress], replica: String, offsetMillis: Int64
    ) throws -> [ContactRecord] {
        var remoteClock = HybridLogicalClock(replica: try ReplicaID(replica))
        let now = SystemClock().now.rawValue + offsetMillis
        return addresses.enumerated().map { index, address in
            let key = ContactKey(wallet: wallet, address: address)
            let stamp = remoteClock.tick(physicalMillis: now)
            let record = ContactRecord.added(
                key: key, stamp: stamp, addedAt: UnixMillis(now), alias: "\(replica) \(index)",
                isAutoAdded: false)
            return index % 10 == 0
                ? ((try? record.deleting(stamp: remoteClock.tick(physicalMillis: now))) ?? record) : record
        }
    }

    static func legacyFile(wallet: ContactAddress, addresses: [ContactAddress]) -> Data {
        var text = "{\"kachat_contacts_wallet_\(wallet)\":["
        for (index, address) in addresses.enumerated() {
            if index > 0 { text += "," }
            text += """
                {"id":"\(UUID().uuidString)","address":"\(address.description.uppercased())","alias":"c\(index)",\
                "addedAt":\(700_000_000 + index),"lastMessageAt":\(750_000_000 + index),"isAutoAdded":false,\
                "notificationModeOverride":"\(index % 3 == 0 ? "off" : "sound")","realtimeUpdatesDisabled":false,\
                "isArchived":false}
                """
        }
        return Data((text + "]}").utf8)
    }

    static func scratchStore() throws -> ContactsStore {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("tandem-bench-contacts-\(UUID().uuidString).sqlite").path
        return try ContactsStore(path: path)
    }

    static func benchAddress(_ index: UInt32) throws -> KaspaAddress {
        var payload = [UInt8](repeating: 0x5a, count: 32)
        withUnsafeBytes(of: index.bigEndian) { payload.replaceSubrange(0..<4, with: $0) }
        return try KaspaAddress(network: .mainnet, version: .publicKey, payload: payload)
    }
}
