import Foundation
import TandemBasics
import TestSupport
import Testing

@testable import TandemServerStore

/// The SQLite backend's checkpoint window (issue 29, the relay's CPU): commits leave up to
/// `SQLiteServerStore.checkpointPages` pages in the WAL before SQLite copies them back into the
/// database file, not SQLite's default of 1,000.
@Suite struct SQLiteCheckpointTests {
    /// One WAL frame: a 24-byte header and a 4 KiB page.
    static let frameBytes = 24 + 4_096

    @Test func commitsPastSQLitesDefaultWindowStayInTheWAL() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("tandem.sqlite")
        let store = try SQLiteServerStore(fileURL: file)
        let wal = file.path + "-wal"
        func walFrames() throws -> Int {
            let size = try FileManager.default.attributesOfItem(atPath: wal)[.size] as? NSNumber
            return (try #require(size).intValue - 32) / Self.frameBytes
        }
        // Each append is its own transaction (awaited one at a time, so one per batch) and
        // writes at least the table's page and the pages of its two indexes: 700 commits make
        // more than 2,000 frames, which the default window would have checkpointed twice,
        // starting the WAL over each time.
        try await store.withServices {
            for index in 0..<700 {
                let outcome = try await store.appendKasiaRecord(
                    StoreContractTests.draft(index), now: UnixMillis(1_800_000_000_000 + Int64(index)))
                #expect(outcome == .inserted(outcome.record))
            }
        }
        let frames = try walFrames()
        #expect(frames > 2_000, "the WAL holds \(frames) frames")
        #expect(frames <= SQLiteServerStore.checkpointPages)
    }
}
