import KaspaCrypto
import Testing

@testable import TandemServer

/// The relay's cache of parsed sender keys (issue 11 "Figures"): bounded, most recent first,
/// and holding only what it was given.
@Suite struct SenderKeyCacheTests {
    static func entry(_ key: PrivateKey) throws -> (String, SenderKeyCache.Entry) {
        let address = RelayFixtures.address(key)
        return (address.description, SenderKeyCache.Entry(address: address, key: try address.xOnlyPublicKey()))
    }

    @Test func forgetsTheLeastRecentlyUsedSenderBeyondItsCapacity() throws {
        let cache = SenderKeyCache(capacity: 2)
        let (alice, aliceEntry) = try Self.entry(RelayFixtures.alice)
        let (bob, bobEntry) = try Self.entry(RelayFixtures.bob)
        let (carol, carolEntry) = try Self.entry(RelayFixtures.carol)
        cache.store(aliceEntry, for: alice)
        cache.store(bobEntry, for: bob)
        // Alice is used again, so Bob is the least recent when Carol arrives.
        #expect(cache.entry(for: alice)?.key == aliceEntry.key)
        cache.store(carolEntry, for: carol)
        #expect(cache.entry(for: bob) == nil)
        #expect(cache.entry(for: alice)?.address == aliceEntry.address)
        #expect(cache.entry(for: carol)?.key == carolEntry.key)
    }

    /// Keys are the exact text submitted: another spelling of the same address is a miss, so
    /// it is parsed (and judged) on its own.
    @Test func looksUpByTheExactText() throws {
        let cache = SenderKeyCache(capacity: 4)
        let (alice, entry) = try Self.entry(RelayFixtures.alice)
        cache.store(entry, for: alice)
        #expect(cache.entry(for: alice.uppercased()) == nil)
        #expect(cache.entry(for: alice + " ") == nil)
    }
}
