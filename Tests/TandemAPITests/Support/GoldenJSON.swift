import Foundation
import TandemAPI
import Testing

/// Backwards-compatibility check of one wire shape: the value must encode to the stored bytes
/// exactly, and the stored bytes must decode to the value. A change to a DTO that alters what
/// goes over the wire fails here before it reaches a client or server of another version.
///
/// Golden files hold the `APIJSON` encoder's output (sorted keys, ISO-8601 milliseconds); a
/// trailing newline in the file is not part of the shape.
enum GoldenJSON {
    static func check<Value: Codable & Equatable>(
        _ value: Value, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Golden"),
            "missing Golden/\(name).json", sourceLocation: sourceLocation)
        var stored = try Data(contentsOf: url)
        if stored.last == UInt8(ascii: "\n") { stored.removeLast() }
        let encoded = try APIJSON.encoder().encode(value)
        #expect(
            String(decoding: encoded, as: UTF8.self) == String(decoding: stored, as: UTF8.self),
            "\(name): encoding changed", sourceLocation: sourceLocation)
        let decoded = try APIJSON.decoder().decode(Value.self, from: stored)
        #expect(decoded == value, "\(name): decoding changed", sourceLocation: sourceLocation)
    }
}
