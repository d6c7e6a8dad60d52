import Foundation
public import Logging

/// `tandem serve --log-format json` (issue 13 item 6): one JSON object per line on stderr,
/// `{"ts","level","label","message",…metadata}`, for log shippers that parse lines.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let write: @Sendable (String) -> Void

    public init(label: String, level: Logger.Level, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.logLevel = level
        self.write = write
    }

    /// A handler writing to standard error.
    public static func standardError(label: String, level: Logger.Level) -> JSONLogHandler {
        JSONLogHandler(label: label, level: level) { line in FileHandle.standardError.write(Data(line.utf8)) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [String: Any] = [
            "ts": ISO8601DateFormatter().string(from: Date()), "level": event.level.rawValue, "label": label,
            "message": "\(event.message)",
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            fields[key] = Self.plain(value)
        }
        let data =
            (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        write(String(decoding: data, as: UTF8.self) + "\n")
    }

    private static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array(let items): items.map(plain)
        case .dictionary(let entries): entries.mapValues(plain)
        }
    }
}
