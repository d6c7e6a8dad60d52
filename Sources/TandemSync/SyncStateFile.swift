import Foundation
import SecretFiles

/// Loading and saving a sync engine's JSON state file. Saving replaces the file atomically (0600), so
/// a crash leaves the old state or the new one; losing the file costs only a re-read, since
/// everything received is de-duplicated by id on the way in.
enum SyncStateFile {
    static func load<State: Decodable>(_ type: State.Type, from url: URL, fresh: State) throws -> State {
        try load(type, from: url) ?? fresh
    }

    /// The saved state, or nil when there is none yet.
    static func load<State: Decodable>(_ type: State.Type, from url: URL) throws -> State? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(State.self, from: Data(contentsOf: url))
    }

    static func save(_ state: some Encodable, to url: URL) throws {
        try SecretFile.replace(url, contents: try bytes(of: state), durably: false)
    }

    /// The file's bytes for `state`: JSON with sorted keys.
    static func bytes(of state: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(state)
    }

    /// Replaces the file with `bytes` atomically (a state that writes its own JSON).
    static func save(bytes: Data, to url: URL) throws {
        try SecretFile.replace(url, contents: bytes, durably: false)
    }
}
