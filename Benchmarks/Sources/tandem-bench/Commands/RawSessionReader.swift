import BenchSupport
import Foundation
import GRDBSQLite
import TandemBasics
import TandemServerStore

/// The floor of reading get-session's rows from SQLite per request (issue 49 item 6): the same
/// joined statement the store runs (`SQLiteServerStore.sessionWithUser`), prepared once per
/// connection and stepped through SQLite's C API, on read-only connections of its own that map
/// the file as the store's do. No GRDB, no row cache, no Swift values: each column's bytes are
/// touched and nothing is kept. What the store's read costs above this is GRDB's and ours.
final class RawSessionReader: @unchecked Sendable {
    /// Used by one request at a time: taken from `idle` and given back.
    private struct Connection: @unchecked Sendable {
        let database: OpaquePointer
        let statement: OpaquePointer
    }

    private let path: String
    private let memoryMapBytes: Int
    /// Connections not in use; a request takes one (or opens one) and gives it back.
    private let idle = Locked<[Connection]>([])

    static let sql = SessionWithUser.selectSQL(placeholder: "?")

    init(path: String, memoryMapBytes: Int) {
        self.path = path
        self.memoryMapBytes = memoryMapBytes
    }

    deinit {
        for connection in idle.withLock({ $0 }) {
            sqlite3_finalize(connection.statement)
            sqlite3_close_v2(connection.database)
        }
    }

    /// Whether a session with this token hash (64 lowercase hex digits) has a user row.
    func sessionHasUser(tokenHashHex: String) throws -> Bool {
        let connection = try idle.withLock { $0.popLast() } ?? open()
        defer { idle.withLock { $0.append(connection) } }
        let statement = connection.statement
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        var hex = tokenHashHex
        let bound = hex.withUTF8 { bytes in
            // SQLITE_STATIC (nil): the bytes outlive the step, which ends before this returns.
            bytes.withMemoryRebound(to: CChar.self) {
                sqlite3_bind_text(statement, 1, $0.baseAddress, Int32($0.count), nil)
            }
        }
        guard bound == SQLITE_OK else { throw CLIError("bench: raw bind failed (\(bound))") }
        let step = sqlite3_step(statement)
        if step == SQLITE_DONE { return false }
        guard step == SQLITE_ROW else { throw CLIError("bench: raw read failed (\(step))") }
        var touched = 0
        for column in 0..<sqlite3_column_count(statement) {
            if sqlite3_column_type(statement, column) == SQLITE_TEXT, let text = sqlite3_column_text(statement, column)
            {
                touched &+= Int(text.pointee) &+ Int(sqlite3_column_bytes(statement, column))
            } else {
                touched &+= Int(sqlite3_column_int64(statement, column))
            }
        }
        withExtendedLifetime(touched) {}
        return sqlite3_column_type(statement, 9) != SQLITE_NULL
    }

    private func open() throws -> Connection {
        var database: OpaquePointer?
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &database, flags, nil) == SQLITE_OK, let database else {
            sqlite3_close_v2(database)
            throw CLIError("bench: cannot open \(path) read-only")
        }
        var statement: OpaquePointer?
        guard sqlite3_exec(database, "PRAGMA mmap_size = \(memoryMapBytes)", nil, nil, nil) == SQLITE_OK,
            sqlite3_prepare_v3(database, Self.sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
                == SQLITE_OK,
            let statement
        else {
            let message = String(cString: sqlite3_errmsg(database))
            sqlite3_close_v2(database)
            throw CLIError("bench: raw statement: \(message)")
        }
        return Connection(database: database, statement: statement)
    }
}
