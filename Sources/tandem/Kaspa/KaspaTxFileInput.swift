import Foundation
import KaspaTransaction

/// Reads the SDK-form JSON files the `kaspa tx` tools take, naming the file in every error.
enum KaspaTxFileInput {
    static func data(_ path: String) throws -> Data {
        if path == "-" { return CommandIO.readStandardInput() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("cannot read file '\(path)'")
        }
        return data
    }

    static func decode<T: Decodable>(_ type: T.Type, from path: String, what: String) throws -> T {
        let bytes = try data(path)
        do { return try JSONDecoder().decode(T.self, from: bytes) } catch let error as DecodingError {
            throw CLIError("file '\(path)' is not \(what): \(describe(error))")
        } catch {
            throw CLIError("file '\(path)' is not \(what): not JSON")
        }
    }

    static func transaction(_ path: String) throws -> KaspaTransaction {
        try decode(KaspaTransaction.self, from: path, what: "a transaction in the SDK's JSON form")
    }

    /// One line: the path of the bad field and what was wrong with it.
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return keys.isEmpty ? "" : "\(keys): "
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context))missing '\(key.stringValue)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return path(context) + context.debugDescription
        @unknown default: return "malformed"
        }
    }

    /// Prints the transaction as one line of SDK-form JSON.
    static func print(_ transaction: KaspaTransaction) throws {
        try CommandIO.printJSON(transaction)
    }
}
