import Foundation
import TandemAPI
import TandemAccounts
import TandemBasics

/// What a sealed-record pull hands its writer for one page: what the page opened, the state that
/// describes it, whether to save that state now, and the progress to announce after.
struct SealedRecordPage<Opened: Sendable, State: Sendable>: Sendable {
    var opened: Opened
    var state: State
    var save: Bool
    var announce: SyncProgress?
}

extension SealedRecordSync {
    /// Pulls every page after the cursor (see ``SealedRecordSync`` for when the state is saved).
    func pull(_ state: inout State, run: inout Run, progress: (@Sendable (SyncProgress) -> Void)?)
        async throws(SyncError)
    {
        // The state of the last stored page, while it is not saved yet.
        let unsaved = Locked<State?>(nil)
        let pulling = PagedPull<ContactRecordPage, SealedRecordPage<Opened, State>>(
            fetch: { [client, retry, pageSize] cursor async throws(SyncError) in
                do throws(AccountClientError) {
                    return try await retry.run { () async throws(AccountClientError) in
                        try await client.sealedRecords(Self.collection, after: cursor, limit: pageSize)
                    }
                } catch { throw .account(error) }
            },
            cursorAfter: { $0.hasMore && !$0.records.isEmpty ? $0.cursor : nil },
            store: { [self] page throws(SyncError) in
                let changed = try apply(page.opened)
                if page.save {
                    try save(page.state)
                    unsaved.withLock { $0 = nil }
                } else {
                    unsaved.withLock { $0 = page.state }
                }
                if let step = page.announce { progress?(step) }
                return changed
            })
        var received = 0
        var receivedAtSave = 0
        let changed: Int
        do throws(SyncError) {
            changed = try await pulling.run(after: state.cursor) { page, store throws(SyncError) in
                let opened = try await read(page, state: &state, run: &run)
                received += page.records.count
                state.cursor = page.cursor
                let last = !page.hasMore || page.records.isEmpty
                let save = last || received - receivedAtSave >= max(receivedAtSave, 1)
                if save { receivedAtSave = received }
                let announce = page.hasMore || received > pageSize
                try await store(
                    SealedRecordPage(
                        opened: opened, state: state, save: save,
                        announce: announce
                            ? SyncProgress(
                                kind: Self.collection.progressKind, received: received, hasMore: page.hasMore)
                            : nil))
            }
        } catch {
            // What was stored before the failure is described by the state saved now.
            if let pending = unsaved.withLock({ $0 }) { try? save(pending) }
            throw error
        }
        stored(changed, run: &run)
    }

    /// Pushes the records changed here, in batches; false when the server answered 409 (nothing
    /// of that batch written). The state is saved after each batch.
    func push(_ state: inout State, run: inout Run) async throws(SyncError) -> Bool {
        let items = try outgoing(state: state, run: run)
        var start = 0
        while start < items.count {
            let batch = items[start..<min(start + max(1, batchSize), items.count)]
            var writes: [ContactRecordWrite] = []
            writes.reserveCapacity(batch.count)
            for item in batch { writes.append(try write(item, run: run)) }
            guard let answers = try await put(writes) else { return false }
            guard answers.count == writes.count else {
                throw .invalidPage("\(answers.count) answers for \(writes.count) records written")
            }
            try written(batch, answers: answers, state: &state, run: &run)
            try save(state)
            start = batch.endIndex
        }
        return true
    }
}
