import Foundation
import TandemAPI

/// `GET /api/contacts/records` pages as the sync client reads them (issue 12, session 8): first
/// ``ContactRecordPage/init(compactWire:)``, which takes only the server's exact compact form,
/// then `APIJSON.decoder()` for anything else.
///
/// Differential: the compact reader is a shortcut, so whatever it accepts `APIJSON.decoder()`
/// must accept too, as the same page; a text it declines is the decoder's to judge, as before.
enum ContactPageFuzz {
    static func run(_ bytes: [UInt8]) {
        let data = Data(bytes)
        guard let compact = ContactRecordPage(compactWire: data) else { return }
        guard let reference = try? APIJSON.decoder().decode(ContactRecordPage.self, from: data) else {
            return invariant(false, "the compact reader accepted what the decoder rejects")
        }
        invariant(compact == reference, "the compact reader read another page than the decoder")
    }
}
