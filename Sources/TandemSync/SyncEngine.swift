import TandemAccounts

/// What every sync engine (tasks, presets, contacts) does around its calls: a server call runs
/// under the engine's retry policy and a failure that outlasts it is `SyncError.account`; a
/// local store call's failure is `SyncError.store`.
protocol SyncEngine {
    var retry: SyncRetryPolicy { get }
}

extension SyncEngine {
    func call<T>(_ request: () async throws(AccountClientError) -> T) async throws(SyncError) -> T {
        do { return try await retry.run(request) } catch { throw .account(error) }
    }

    func local<T>(_ body: () throws -> T) throws(SyncError) -> T {
        do { return try body() } catch { throw .store(String(describing: error)) }
    }
}
