import Foundation
import TandemTesting
import Testing

@testable import TandemSync

/// The contacts sync state file's direct writer (issue 12 "Figures") writes the canonical
/// writer's bytes exactly, and `JSONDecoder` reads back the same state.
@Suite struct ContactsSyncStateFileTests {
    static func hexID(_ generator: inout some RandomNumberGenerator) -> String {
        String((0..<64).map { _ in "0123456789abcdef".randomElement(using: &generator) ?? "0" })
    }

    static func state(records: Int, _ generator: inout some RandomNumberGenerator) -> ContactsSyncState {
        var state = ContactsSyncState()
        state.server = "http://127.0.0.1:8080/"
        state.accountID = "acct_\(records)"
        state.wallet = "kaspa:qpumqqqq"
        state.cursor = records == 0 ? nil : String(records * 17)
        for _ in 0..<records {
            let id = hexID(&generator)
            state.versions[id] = Int64.random(in: -5...(1 << 53 - 1), using: &generator)
            state.digests[id] = hexID(&generator)
        }
        return state
    }

    @Test(arguments: [0, 1, 2, 50, 1_000])
    func plainBytesEqualTheCanonicalWritersBytes(records: Int) throws {
        var generator = SeededRandom(seed: 20_261_127)
        let state = Self.state(records: records, &generator)
        let plain = try #require(state.plainBytes())
        #expect(Data(plain) == (try state.canonicalValueBytes()))
        #expect(try state.fileBytes() == Data(plain))
        #expect(try JSONDecoder().decode(ContactsSyncState.self, from: state.fileBytes()) == state)
    }

    @Test func mapsWithDifferentIDsAreEachSorted() throws {
        var generator = SeededRandom(seed: 20_261_128)
        var state = Self.state(records: 20, &generator)
        state.digests[Self.hexID(&generator)] = Self.hexID(&generator)
        state.versions[Self.hexID(&generator)] = 3
        state.versions.removeValue(forKey: try #require(state.versions.keys.first))
        #expect(try #require(state.plainBytes()) == Array(try state.canonicalValueBytes()))
    }

    /// Strings that need escaping leave the direct writer to the canonical one, and the short
    /// members are escaped by it either way.
    @Test(arguments: ["quote \" id", "back\\slash", "ctl\u{1}", "zoë"])
    func anIDThatNeedsEscapingTakesTheCanonicalWriter(id: String) throws {
        var state = ContactsSyncState()
        state.versions[id] = 1
        state.digests[id] = "d"
        if ContactsSyncState.isPlain(id) {
            #expect(try #require(state.plainBytes()) == Array(try state.canonicalValueBytes()))
        } else {
            #expect(state.plainBytes() == nil)
        }
        #expect(try JSONDecoder().decode(ContactsSyncState.self, from: state.fileBytes()) == state)
        state = ContactsSyncState()
        state.server = id
        state.cursor = id
        #expect(try #require(state.plainBytes()) == Array(try state.canonicalValueBytes()))
    }
}
