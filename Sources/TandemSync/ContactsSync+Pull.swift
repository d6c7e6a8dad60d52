import Contacts
import Foundation
import TandemAPI

/// How ``ContactsSync`` reads its pull (issue 12 "Figures": a new device's full sync of 10,000
/// records under 1 s). Each page is opened on every core while the next is fetched and the one
/// before is merged (``SealedRecordSync``'s pull). Every record still gets the full check of
/// ``ContactsSyncCipher/open(_:)``, and pages are merged, and the state saved, in server order.
extension ContactsSync {
    /// A record this sync received, with its blob id and the digest of its content: the push
    /// skips hashing a stored record that still equals it.
    struct PulledRecord: Sendable {
        let id: String
        let record: ContactRecord
        let digest: String
    }

    /// Opens a page: the state and the run learn each record's version and digest, and the
    /// records that opened are merged next.
    func read(_ page: ContactRecordPage, state: inout ContactsSyncState, run: inout Run) async -> [ContactRecord] {
        var opened: [ContactRecord] = []
        opened.reserveCapacity(page.records.count)
        for (entry, record) in zip(page.records, await Self.open(page.records, with: cipher)) {
            guard let record else {
                run.report.unreadable += 1
                continue
            }
            opened.append(record.record)
            state.versions[entry.id] = entry.version
            state.digests[entry.id] = record.digest
            run.pulled[record.record.key] = record
        }
        run.report.pulled += opened.count
        return opened
    }

    /// Merges a page's records; how many local contacts they changed.
    func apply(_ opened: [ContactRecord]) throws(SyncError) -> Int {
        try local { try store.merge(opened).count }
    }

    /// Opens a page's records on every core (``ParallelOpen``), in page order; nil for a record
    /// that does not open with this wallet's key. Each gets the full check of
    /// ``ContactsSyncCipher/open(_:)``, and its digest is taken beside the open.
    static func open(_ entries: [ContactRecordEntry], with cipher: ContactsSyncCipher) async -> [PulledRecord?] {
        await ParallelOpen.map(entries) { openOne($0, with: cipher) }
    }

    private static func openOne(_ entry: ContactRecordEntry, with cipher: ContactsSyncCipher) -> PulledRecord? {
        guard let box = Data(base64Encoded: entry.box),
            let record = try? cipher.open(ContactSyncBlob(id: entry.id, box: box))
        else { return nil }
        return PulledRecord(id: entry.id, record: record, digest: record.syncDigest)
    }
}
