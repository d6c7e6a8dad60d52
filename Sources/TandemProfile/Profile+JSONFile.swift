import Foundation
import SecretFiles

/// The small JSON settings files of a profile (`server.json`, `kaspa-network.json`): read
/// strictly — a file that does not decode is a typed error naming it — and written atomically.
extension Profile {
    /// The decoded file, or nil when it does not exist.
    package func readJSON<Value: Decodable>(_ type: Value.Type, from file: File) throws(ProfileError) -> Value? {
        let url = url(file)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do { return try JSONDecoder().decode(type, from: Data(contentsOf: url)) } catch {
            throw .corruptFile(path: url.path, reason: String(describing: error))
        }
    }

    /// Writes `value` with sorted keys, replacing the file in one step (0600).
    package func writeJSON(_ value: some Encodable, to file: File, pretty: Bool = false) throws(ProfileError) {
        let url = url(file)
        do {
            try SecretFile.createDirectory(directory)
            let encoder = JSONEncoder()
            encoder.outputFormatting =
                pretty
                ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
            try SecretFile.replace(url, contents: try encoder.encode(value), durably: false)
        } catch let error as SecretFileError {
            throw ProfileError(error)
        } catch {
            throw .fileSystem(path: url.path, reason: String(describing: error))
        }
    }
}
