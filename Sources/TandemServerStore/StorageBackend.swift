public import Foundation

/// Where the server keeps its data.
public enum StorageBackend: Sendable, Equatable {
    /// SQLite file `tandem.sqlite` in this directory (the default; needs no set-up).
    case sqlite(dataDirectory: URL)
    /// PostgreSQL at a `postgres://user:password@host:port/database` URL.
    case postgres(url: String)
}
