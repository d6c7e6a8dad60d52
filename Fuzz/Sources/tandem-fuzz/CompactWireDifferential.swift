import Foundation
import TandemAPI

/// The differential of the compact readers (`contact-page`, `push-answer`): a compact reader is a
/// shortcut, so whatever it accepts `APIJSON.decoder()` must accept too, as the same value; a
/// text it declines is the decoder's to judge, as before.
enum CompactWireDifferential {
    static func check<Value: Decodable & Equatable>(_ bytes: [UInt8], _ compact: (Data) -> Value?) {
        let data = Data(bytes)
        guard let read = compact(data) else { return }
        guard let reference = try? APIJSON.decoder().decode(Value.self, from: data) else {
            return invariant(false, "the compact reader accepted what the decoder rejects")
        }
        invariant(read == reference, "the compact reader read another value than the decoder")
    }
}
