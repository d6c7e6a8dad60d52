import GRDB

/// The SQLite file behind the backend's choke points (issue 26 item 2): every read and write a
/// store method makes goes through ``StorePolicy`` here, counted while in flight. No deadline:
/// the file is local and GRDB's one writer orders the writes.
struct SQLiteDatabase: Sendable {
    private let writer: any DatabaseWriter
    let policy: StorePolicy
    /// Told of every commit; it checkpoints the WAL off the commit path. Nil: SQLite's own
    /// checkpoints, in the commit.
    let checkpointer: SQLiteCheckpointer?

    init(writer: any DatabaseWriter, policy: StorePolicy, checkpointer: SQLiteCheckpointer?) {
        self.writer = writer
        self.policy = policy
        self.checkpointer = checkpointer
    }

    /// A synchronous read on the calling thread: a WAL read of one indexed row takes
    /// microseconds, far less than the two thread hops of GRDB's async read (BENCHMARKS.md, issue 4).
    func read<T>(_ block: (Database) throws -> T) throws -> T {
        try policy.counted(read: true) { try writer.read(block) }
    }

    /// A synchronous read of one statement on the calling thread, outside a transaction: the
    /// statement reads one snapshot of its own, so it needs no BEGIN and COMMIT around it (each
    /// prepared anew by GRDB). Only for a block that runs a single statement.
    func readStatement<T>(_ block: (Database) throws -> T) throws -> T {
        try policy.counted(read: true) { try writer.unsafeRead(block) }
    }

    /// An asynchronous read, for a caller that may wait (`ping`).
    func asyncRead<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await policy.countedAsync(read: true) { try await writer.read(block) }
    }

    /// One write transaction on GRDB's writer.
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let result = try await policy.countedAsync { try await writer.write(updates) }
        checkpointer?.committed()
        return result
    }
}
