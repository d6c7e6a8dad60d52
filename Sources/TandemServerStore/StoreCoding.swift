import Foundation
import TandemBasics

/// Column encodings shared by both backends.
enum StoreCoding {
    /// Public keys are kept as a JSON array of strings in one text column.
    static func encodeKeys(_ keys: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(keys), as: UTF8.self)
    }

    static func decodeKeys(_ text: String) throws -> [String] {
        do { return try JSONDecoder().decode([String].self, from: Data(text.utf8)) } catch {
            throw ServerStoreError.corruptRow(table: "users", reason: "public_keys is not a JSON array of strings")
        }
    }
}

extension Date {
    /// Milliseconds since 1970 (``UnixMillis``), the stored form of every time column.
    var storeMillis: Int64 { UnixMillis(self).rawValue }

    init(storeMillis: Int64) { self = UnixMillis(storeMillis).date }
}
