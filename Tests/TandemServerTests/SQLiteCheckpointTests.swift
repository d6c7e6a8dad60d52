import Foundation
import GRDB
import TandemBasics
import TestSupport
import Testing

@testable import TandemServerStore

/// The SQLite backend checkpoints its WAL beside the writer, not in the commit that crosses a
/// window (issue 49 item 5), and the chain ingester can let the reads in flight finish first.
@Suite(.timeLimit(.minutes(2))) struct SQLiteCheckpointTests {
    /// One WAL frame: a 24-byte header and a 4 KiB page.
    static let frameBytes = 24 + 4_096

    static func append(_ count: Int, to store: SQLiteServerStore) async throws {
        try await store.withServices {
            for index in 0..<count {
                let outcome = try await store.appendKasiaRecord(
                    StoreContractTests.draft(index), now: UnixMillis(1_800_000_000_000 + Int64(index)))
                #expect(outcome == .inserted(outcome.record))
            }
        }
    }

    @Test func commitsPastSQLitesDefaultWindowAreNotCheckpointedByTheWriter() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("tandem.sqlite")
        // Given a checkpointer that runs once, at the first commit, and then not for an hour
        let store = try SQLiteServerStore(fileURL: file, checkpointInterval: .seconds(3_600))
        // When 1,000 commits each write at least the table's page and its two indexes' pages
        try await Self.append(1_000, to: store)
        // Then the WAL grew past 2,000 frames: SQLite's default window would have started it
        // over every 1,000, in the commit that crossed it
        let size = try FileManager.default.attributesOfItem(atPath: file.path + "-wal")[.size] as? NSNumber
        let frames = (try #require(size).intValue - 32) / Self.frameBytes
        #expect(frames > 2_000, "the WAL holds \(frames) frames")
        #expect(frames < SQLiteCheckpointer.backstopPages)
    }

    @Test func theCheckpointerCopiesCommittedPagesIntoTheFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("tandem.sqlite")
        let store = try SQLiteServerStore(fileURL: file, checkpointInterval: .zero)
        try await Self.append(300, to: store)
        let checkpointer = try #require(store.database.checkpointer)
        await checkpointer.settled()
        // A passive checkpoint may meet "database is locked" (about one run in ten of this test
        // alone, before any change of session 49); it loses nothing, and the next one copies the
        // frames. What matters is that the file catches up.
        #expect(checkpointer.checkpoints.succeeded >= 1)
        // Then the database file alone, without its WAL, holds every row
        let copy = directory.url.appendingPathComponent("copy.sqlite")
        try FileManager.default.copyItem(at: file, to: copy)
        let alone = try DatabaseQueue(path: copy.path)
        let rows = try await alone.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM kasia_tx") }
        #expect(rows == 300)
    }

    /// A checkpoint waiting for its interval does not keep the checkpointer of a dropped store,
    /// and with it a connection to the file, alive until it runs.
    @Test func aCheckpointWaitingForItsIntervalDoesNotOutliveItsOwner() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("tandem.sqlite").path
        var owned: SQLiteCheckpointer? = try SQLiteCheckpointer(path: path, interval: .seconds(3_600))
        weak let checkpointer = owned
        // Given the first checkpoint done and the next one waiting an hour for its turn
        checkpointer?.committed()
        await checkpointer?.settled()
        #expect(checkpointer?.checkpoints.succeeded == 1)
        checkpointer?.committed()
        // When its owner lets go of it, it is gone at once
        owned = nil
        #expect(checkpointer == nil)
    }

    @Test func aStoreReadCountsAsAReadInFlightAndAWriteDoesNot() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteServerStore(fileURL: directory.url.appendingPathComponent("tandem.sqlite"))
        let during = try store.readNow { _ in (store.activity.readsInFlight, store.activity.inFlight) }
        #expect(during == (1, 1))
        let writing = try await store.database.write { _ in store.activity.readsInFlight }
        #expect(writing == 0)
        #expect(store.activity.readsInFlight == 0 && store.activity.inFlight == 0)
    }

    @Test func aWaitForQuietReadsEndsWhenTheLastReadLeaves() async throws {
        let activity = StoreActivity()
        activity.enter(read: true)
        activity.enter(read: true)
        activity.enter()  // a write: not waited for
        let waiter = Task { await activity.readsQuiet(atMost: .seconds(3_600)) }
        while activity.waiting == 0 { await Task.yield() }
        activity.leave(read: true)
        #expect(activity.waiting == 1)
        activity.leave(read: true)
        await waiter.value
        #expect(activity.readsInFlight == 0 && activity.inFlight == 1)
    }

    @Test func aWaitForQuietReadsEndsAtItsLimit() async throws {
        let activity = StoreActivity()
        activity.enter(read: true)
        await activity.readsQuiet(atMost: .milliseconds(5))
        #expect(activity.waiting == 0)
        #expect(activity.readsInFlight == 1)
        // And with no read in flight it does not wait at all
        activity.leave(read: true)
        await activity.readsQuiet(atMost: .seconds(3_600))
    }
}
