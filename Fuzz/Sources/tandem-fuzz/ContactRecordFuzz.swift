import Foundation

@testable import Contacts

/// The plaintext of a contact sync record (after authentication, DocC "Record format"):
/// decoding either rejects it or yields a record that survives encode ∘ decode unchanged.
///
/// Differential (issue 12): the cipher reads plaintexts through ``ContactRecordWire/decode(_:)``,
/// whose `JSONParser` path must never accept what `JSONDecoder` rejects nor read another record
/// than `JSONDecoder` does; so the whole decoder accepts exactly what `JSONDecoder` accepts.
enum ContactRecordFuzz {
    static func run(_ bytes: [UInt8]) {
        let data = Data(bytes)
        let reference = try? JSONDecoder().decode(ContactRecordWire.self, from: data)
        if let parsed = ContactRecordWire.parsed(data) {
            guard let reference else { return invariant(false, "the parser path accepted what JSONDecoder rejects") }
            invariant(sameBytes(parsed, reference), "the parser path read another record than JSONDecoder")
        }
        let decoded = try? ContactRecordWire.decode(data)
        invariant((decoded == nil) == (reference == nil), "decode and JSONDecoder disagree on accepting")
        guard let wire = decoded, let record = try? wire.record() else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let text = try? encoder.encode(ContactRecordWire(record)),
            let again = try? ContactRecordWire.decode(text).record()
        else { return invariant(false, "a decoded record does not encode and decode again") }
        invariant(again == record, "encode ∘ decode changed the record")
    }

    /// Byte-exact equality (strings compared as UTF-8, never by canonical equivalence).
    static func sameBytes(_ a: ContactRecordWire, _ b: ContactRecordWire) -> Bool {
        guard let left = try? ContactRecordWire.encoderBytes(a), let right = try? ContactRecordWire.encoderBytes(b)
        else { return false }
        return left == right
    }
}
