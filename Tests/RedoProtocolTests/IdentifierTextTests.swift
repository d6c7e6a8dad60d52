import Foundation
import RedoProtocol
import TandemTesting
import Testing

/// Task and todo ids are written straight into their strings and parsed from bytes where they lie
/// (issue 49 item 2); Foundation's UUID text is the reference for what they write.
@Suite struct IdentifierTextTests {
    @Test func idsWriteFoundationsTextAndReadItBack() throws {
        var random = SeededRandom(seed: 4122)
        for _ in 0..<2_000 {
            let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
            let task = TaskID(randomBytes: bytes)
            var fixed = bytes
            fixed[6] = fixed[6] & 0x0F | 0x40
            fixed[8] = fixed[8] & 0x3F | 0x80
            let reference = UUID(
                uuid: (
                    fixed[0], fixed[1], fixed[2], fixed[3], fixed[4], fixed[5], fixed[6], fixed[7], fixed[8], fixed[9],
                    fixed[10], fixed[11], fixed[12], fixed[13], fixed[14], fixed[15]
                )
            ).uuidString.lowercased()
            #expect(task.description == reference)
            #expect(task.abbreviated == String(reference.prefix(8)))
            #expect(TaskID(reference) == task)
            #expect(TodoID(reference)?.abbreviated == task.abbreviated)
            #expect(Self.fromBytes(reference) == task)
        }
    }

    @Test func parsingBytesRefusesWhatParsingTextRefuses() {
        let valid = "0053d36e-4f1c-4a9b-8c2d-1234567890ab"
        let refused = [
            "", valid.uppercased(), String(valid.dropLast()), valid + "0",
            valid.replacingOccurrences(of: "-4a9b-", with: "-5a9b-"),  // version 5
            valid.replacingOccurrences(of: "-8c2d-", with: "-7c2d-"),  // variant 0
            valid.replacingOccurrences(of: "-", with: "_"), "0053d36e-4f1c-4a9b-8c2d-1234567890ag",
        ]
        #expect(Self.fromBytes(valid)?.description == valid)
        for text in refused {
            #expect(TaskID(text) == nil, "\(text)")
            #expect(Self.fromBytes(text) == nil, "\(text)")
        }
    }

    @Test func userIDsAreThirtyTwoLowercaseHexDigits() {
        let valid = "0123456789abcdef0123456789abcdef"
        #expect(UserID(valid)?.description == valid)
        for text in [
            "", String(valid.dropLast()), valid + "0", valid.uppercased(), "0123456789abcdeg0123456789abcdef",
            String(repeating: "é", count: 16),
        ] {
            #expect(UserID(text) == nil, "\(text)")
        }
    }

    private static func fromBytes(_ text: String) -> TaskID? {
        Array(text.utf8).withUnsafeBufferPointer(TaskID.init(utf8:))
    }
}
