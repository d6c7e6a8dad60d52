import Foundation

/// Reads current states for a batch of keys inside one transaction (merge, migration).
///
/// A large batch preloads each wallet's states with one query; a small one looks keys up one by
/// one. A batch must not hold a key twice (``ContactsStore/collapsed(_:)``): a preloaded state is
/// not updated by the batch's own writes.
final class StateLookup {
    /// Batches at least this large preload (one scan beats thousands of point lookups).
    static let preloadThreshold = 256

    private let rows: ContactsStore.RowStatements
    private var preloaded: [ContactAddress: [String: Data]]?

    init<Keys: Collection>(rows: ContactsStore.RowStatements, keys: Keys) throws where Keys.Element == ContactKey {
        self.rows = rows
        guard keys.count >= Self.preloadThreshold else { return }
        var states: [ContactAddress: [String: Data]] = [:]
        for wallet in Set(keys.map(\.wallet)) { states[wallet] = try rows.states(wallet: wallet) }
        preloaded = states
    }

    /// The stored state bytes of `key`.
    func state(for key: ContactKey) throws -> Data? {
        guard let preloaded else { return try rows.state(key) }
        return preloaded[key.wallet]?[key.address.description]
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
