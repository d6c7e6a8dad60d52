import Foundation
import TandemAPI

/// `GET /api/contacts/records` pages as the sync client reads them (issue 12, session 8): first
/// ``ContactRecordPage/init(compactWire:)``, which takes only the server's exact compact form,
/// then `APIJSON.decoder()` for anything else.
///
/// The differential is `CompactWireDifferential`'s.
enum ContactPageFuzz {
    static func run(_ bytes: [UInt8]) {
        CompactWireDifferential.check(bytes, ContactRecordPage.init(compactWire:))
    }
}
