import Foundation
import Testing

@testable import TandemServer

/// Fresh request ids come from a counter mixed with a per-process key (no system call per
/// request): they must still be version 4 UUIDs in lowercase text, and never repeat.
@Suite struct RequestIDTests {
    @Test func freshIdsAreDistinctLowercaseVersion4UUIDs() throws {
        var seen = Set<String>()
        for _ in 0..<20_000 {
            let id = RequestID.fresh()
            #expect(seen.insert(id).inserted, "\(id) repeated")
            let uuid = try #require(UUID(uuidString: id))
            #expect(uuid.uuidString.lowercased() == id)
            let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
            #expect(bytes[6] >> 4 == 4, "version nibble of \(id)")
            #expect(bytes[8] >> 6 == 0b10, "variant bits of \(id)")
        }
        // The bits vary: every hex digit but the dashes, the version and the variant takes
        // several values.
        let ids = Array(seen.prefix(64))
        for position in 0..<36 where ![8, 13, 14, 18, 19, 23].contains(position) {
            let digits = Set(ids.map { Array($0.utf8)[position] })
            #expect(digits.count > 4, "position \(position) barely varies")
        }
    }

    @Test func acceptsOnlySafeClientIds() {
        #expect(RequestID.accepted("abc-123.x_y") == "abc-123.x_y")
        #expect(RequestID.accepted("") == nil)
        #expect(RequestID.accepted("bad id") == nil)
        #expect(RequestID.accepted(String(repeating: "a", count: 129)) == nil)
        #expect(RequestID.accepted(String(repeating: "a", count: 128)) != nil)
    }
}
