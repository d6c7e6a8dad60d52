import Foundation

@testable import Contacts

/// The plaintext of a contact sync record (after authentication, DocC "Record format"):
/// decoding either rejects it or yields a record that survives encode ∘ decode unchanged.
enum ContactRecordFuzz {
    static func run(_ bytes: [UInt8]) {
        guard let wire = try? JSONDecoder().decode(ContactRecordWire.self, from: Data(bytes)),
            let record = try? wire.record()
        else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let text = try? encoder.encode(ContactRecordWire(record)),
            let again = try? JSONDecoder().decode(ContactRecordWire.self, from: text).record()
        else { return invariant(false, "a decoded record does not encode and decode again") }
        invariant(again == record, "encode ∘ decode changed the record")
    }
}
