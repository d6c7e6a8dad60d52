/// A paged pull as one structured unit (issue 46 item 4), shared by the task and contacts pulls.
///
/// Three stages overlap, each in order: a child task requests the page after the current one
/// while the caller reads the current page (`reading`), and what the caller hands over is stored
/// by a second child, one batch at a time, in the order it was handed over. The caller's reading
/// waits only when a batch is handed over while the one before it is still being stored, so at
/// most one page is fetched ahead and one batch waits.
///
/// Cancelling the task that runs the pull cancels it as a unit: the request in flight is
/// cancelled, no page is read and no batch is stored after that, and ``run(after:reading:)``
/// returns (with ``SyncError/cancelled``) only once the batch being stored, one at most, is done.
/// Nothing is written after it returns.
///
/// A failed request surfaces when its page is due, after every batch handed over before it has
/// been stored: whatever was received before a failure is kept. A failed store surfaces at once,
/// and nothing after it is stored.
struct PagedPull<Page: Sendable, Batch: Sendable>: Sendable {
    /// Requests the page after a cursor (nil: from the start).
    var fetch: @Sendable (_ after: String?) async throws(SyncError) -> Page
    /// The cursor of the page after `page`; nil when `page` is the last.
    var cursorAfter: @Sendable (_ page: Page) -> String?
    /// Stores one batch and says how many items it changed. Batches are stored one at a time,
    /// in the order they were handed over.
    var store: @Sendable (Batch) throws(SyncError) -> Int

    /// What a child task of the pull finished.
    private enum Event: Sendable {
        case fetched(Result<Page, SyncError>)
        case stored(Result<Int, SyncError>)
    }

    /// Pulls every page after `cursor`, handing each to `reading` in server order; `reading`
    /// hands batches to its second argument, which stores them. Returns how many items the
    /// stores changed in all.
    @discardableResult
    func run(
        after cursor: String?,
        reading: (_ page: Page, _ store: (Batch) async throws(SyncError) -> Void) async throws(SyncError) -> Void
    ) async throws(SyncError) -> Int {
        do {
            return try await withThrowingTaskGroup(of: Event.self) { group in
                var fetched: Result<Page, SyncError>?
                var storing = false
                var changed = 0

                func request(after cursor: String?) {
                    group.addTask {
                        do throws(SyncError) { return .fetched(.success(try await fetch(cursor))) } catch {
                            return .fetched(.failure(error))
                        }
                    }
                }
                // Waits for one child to finish; a failed store is thrown here.
                func settle() async throws {
                    switch try await group.next() {
                    case .fetched(let result)?: fetched = result
                    case .stored(.failure(let error))?:
                        storing = false
                        throw error
                    case .stored(.success(let count))?:
                        storing = false
                        changed += count
                    case nil: preconditionFailure("PagedPull waited with no child running")
                    }
                }
                func hand(_ batch: Batch) async throws(SyncError) {
                    do { while storing { try await settle() } } catch { throw Self.syncError(error) }
                    if Task.isCancelled { throw .cancelled }
                    storing = true
                    group.addTask {
                        do throws(SyncError) {
                            return .stored(.success(try store(batch)))
                        } catch { return .stored(.failure(error)) }
                    }
                }

                request(after: cursor)
                while true {
                    while fetched == nil { try await settle() }
                    let outcome = fetched
                    fetched = nil
                    guard case .success(let page) = outcome else {
                        // Every batch before the failed page is stored before its error surfaces.
                        while storing { try await settle() }
                        if case .failure(let error) = outcome { throw Task.isCancelled ? .cancelled : error }
                        return changed
                    }
                    if Task.isCancelled { throw SyncError.cancelled }
                    let next = cursorAfter(page)
                    if let next { request(after: next) }
                    try await reading(page, hand)
                    if next == nil { break }
                }
                while storing { try await settle() }
                return changed
            }
        } catch {
            throw Self.syncError(error)
        }
    }

    private static func syncError(_ error: any Error) -> SyncError {
        if let error = error as? SyncError { return error }
        if error is CancellationError { return .cancelled }
        return .store(String(describing: error))
    }
}
