import Logging
import TandemBasics
import TandemServerStore

/// The in-process fan-out of relayed rows to open streams (issue 11 item 3).
///
/// It follows the store's commit order: each `poke()` reads the rows after the last one it
/// published and hands each to the subscriptions that watch it. Because positions are
/// assigned in commit order, "after the last published" never skips a row, whichever
/// instance wrote it: local submissions and the chain ingester poke it directly, and on PostgreSQL the
/// LISTEN/NOTIFY listener and a slow poll poke it for rows written by other instances.
actor RelayHub {
    private let store: any RelayStore
    private let logger: Logger
    let capacity: Int
    private var subscriptions: [UInt64: RelaySubscription] = [:]
    private var nextID: UInt64 = 0
    /// The newest position handed out; nil while nobody listens.
    private var lastPublished: Int64?
    private var catchingUp = false
    private var pokedAgain = false
    /// Subscriptions made or being made: counted before `subscribe` reads the latest
    /// position, so a committer that reads zero here may skip the poke (``pokeIfListening()``).
    private let listening = Locked(0)

    /// Rows read per store query while catching up.
    static let batchSize = 500

    init(store: any RelayStore, capacity: Int, logger: Logger) {
        self.store = store
        self.capacity = capacity
        self.logger = logger
    }

    /// Registers a subscription. Everything committed after this call returns reaches it (or
    /// it overflows); the caller replays older rows from the store.
    func subscribe(_ watch: KasiaWatch) async throws -> RelaySubscription {
        listening.withLock { $0 += 1 }
        if lastPublished == nil {
            do {
                let latest = try await store.latestKasiaPosition() ?? 0
                if lastPublished == nil { lastPublished = latest }
            } catch {
                listening.withLock { $0 -= 1 }
                throw error
            }
        }
        nextID += 1
        let subscription = RelaySubscription(id: nextID, watch: watch, capacity: capacity)
        subscriptions[subscription.id] = subscription
        return subscription
    }

    func unsubscribe(_ subscription: RelaySubscription) {
        listening.withLock { $0 -= 1 }
        subscription.close()
        subscriptions[subscription.id] = nil
        if subscriptions.isEmpty { lastPublished = nil }
    }

    var subscriberCount: Int { subscriptions.count }

    /// ``poke()`` for a row the caller has just committed, skipped (no hop onto the hub) while
    /// no stream is subscribed or subscribing: a subscription that starts later reads the
    /// latest position after that commit, and its stream replays older rows from the store.
    nonisolated func pokeIfListening() async {
        guard listening.withLock({ $0 }) > 0 else { return }
        await poke()
    }

    /// Publishes every row committed since the last call. Concurrent pokes coalesce: one
    /// catch-up runs at a time and repeats while poked again.
    func poke() async {
        if catchingUp {
            pokedAgain = true
            return
        }
        catchingUp = true
        defer { catchingUp = false }
        repeat {
            pokedAgain = false
            await catchUp()
        } while pokedAgain
    }

    private func catchUp() async {
        while let last = lastPublished, !subscriptions.isEmpty {
            let records: [KasiaRecord]
            do { records = try await store.kasiaRecords(after: last, watching: nil, limit: Self.batchSize) } catch {
                logger.warning("relay fan-out could not read the store", metadata: ["error": "\(error)"])
                return
            }
            for record in records { publish(record) }
            if let newest = records.last, let current = lastPublished { lastPublished = max(current, newest.position) }
            if records.count < Self.batchSize { return }
        }
    }

    private func publish(_ record: KasiaRecord) {
        for (id, subscription) in subscriptions where subscription.watch.matches(record) {
            if !subscription.deliver(.record(record)) { subscriptions[id] = nil }
        }
    }
}
