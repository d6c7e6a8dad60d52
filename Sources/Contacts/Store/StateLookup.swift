import Foundation

/// Reads current states for a batch of keys inside one transaction (merge, migration).
///
/// A large batch preloads each wallet's states with one query, unless the wallet holds many
/// more rows than the batch touches (a page of a pull into a large store); a small one looks
/// keys up one by one. A batch must not hold a key twice (``ContactsStore/collapsed(_:)``): a
/// preloaded state is not updated by the batch's own writes.
final class StateLookup {
    /// Batches at least this large preload (one scan beats thousands of point lookups).
    static let preloadThreshold = 256
    /// A wallet is preloaded only when it holds at most this many rows per record of the batch:
    /// beyond that, scanning every row costs more than looking up the batch's keys (issue 12
    /// "Figures": the tenth page of a 10,000-record pull scanned 9,000 rows for 1,000 keys).
    static let rowsPerKeyToPreload = 2

    private let rows: ContactsStore.RowStatements
    /// Preloaded states by wallet; a wallet not in it is looked up key by key.
    private var preloaded: [ContactAddress: [String: Data]] = [:]
    private var preloadedWallets: Set<ContactAddress> = []

    init<Keys: Collection>(rows: ContactsStore.RowStatements, keys: Keys) throws where Keys.Element == ContactKey {
        self.rows = rows
        guard keys.count >= Self.preloadThreshold else { return }
        let limit = keys.count * Self.rowsPerKeyToPreload
        for wallet in Set(keys.map(\.wallet)) {
            guard let states = try rows.states(wallet: wallet, atMost: limit) else { continue }
            preloaded[wallet] = states
            preloadedWallets.insert(wallet)
        }
    }

    /// The stored state bytes of `key`.
    func state(for key: ContactKey) throws -> Data? {
        // Read in place: binding the wallet's dictionary first would copy it out per record.
        if let state = preloaded[key.wallet]?[key.address.description] { return state }
        return preloadedWallets.contains(key.wallet) ? nil : try rows.state(key)
    }

    /// Merges `incoming` into what is stored and writes the result; nil when nothing changed.
    /// Bytes equal to the stored state skip decoding altogether (the common re-sync case).
    func mergeAndSave(_ incoming: ContactRecord) throws -> ContactRecord? {
        let encoded = ContactRecordCodec.encode(incoming)
        guard let stored = try state(for: incoming.key) else {
            try rows.save(incoming, encoded: encoded)
            return incoming
        }
        // memcmp, not a byte-by-byte walk through `Data`'s indices.
        let unchanged =
            stored.count == encoded.count
            && stored.withUnsafeBytes { storedBytes in encoded.withUnsafeBytes { storedBytes.elementsEqual($0) } }
        if unchanged { return nil }
        let current = try ContactsStore.decode(stored, key: incoming.key)
        let merged = current.merged(with: incoming)
        if merged == current { return nil }
        try rows.save(merged, encoded: merged == incoming ? encoded : nil)
        return merged
    }
}
