import Foundation
import TandemAPI

/// `POST /api/redo/nodes` answers as the sync client reads them (issue 49 item 6): first
/// ``RedoNodePushResponse/init(compactWire:)``, which takes only the server's exact compact form,
/// then `APIJSON.decoder()` for anything else.
///
/// The differential is `CompactWireDifferential`'s.
enum PushAnswerFuzz {
    static func run(_ bytes: [UInt8]) {
        CompactWireDifferential.check(bytes, RedoNodePushResponse.init(compactWire:))
    }
}
