public import Foundation
import TandemBasics

/// JSON coders for the wire: dates as ISO-8601 strings with milliseconds
/// (`2025-01-31T12:00:00.000Z`, betterauth-api.md §1), which the BetterAuth client revives.
public enum APIJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatDate(date))
        }
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "not an ISO-8601 date: \(text)")
            }
            return date
        }
        return decoder
    }

    /// `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC, to the nearest millisecond (the stored precision):
    /// ``UnixMillis/iso8601`` writes it without a formatter object, because get-session writes
    /// five dates per answer on the server's hottest path.
    public static func formatDate(_ date: Date) -> String {
        UnixMillis(date).iso8601
    }

    /// Parses ISO-8601 with or without fractional seconds; the exact form the wire writes takes
    /// the formatter-free path.
    public static func parseDate(_ text: String) -> Date? {
        if let instant = UnixMillis(iso8601: text) { return instant.date }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt).parse(text) {
            return date
        }
        return try? Date.ISO8601FormatStyle(timeZone: .gmt).parse(text)
    }
}
